// Holds this browser's device actor (systemId 'secretDevice') while the chats page is open: its code and the crypto
// worker load in the background once the list has painted (at once when the list has a secret chat), so that
// every signed-in browser is a device friends can reach. Renders nothing.
import { useOwnedActor } from '../app/useOwnedActor';

export function SecretDevice(props: { userId: string }) {
  useOwnedActor('secretDevice', { userId: props.userId });
  return null;
}
