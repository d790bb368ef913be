// Holds this browser's device actor (systemId 'secretDevice') while the chats page shows a secret chat: its code
// and the crypto worker load then, never for a user without secret chats. Renders nothing.
import { useOwnedActor } from '../app/useOwnedActor';

export function SecretDevice(props: { userId: string }) {
  useOwnedActor('secretDevice', { userId: props.userId });
  return null;
}
