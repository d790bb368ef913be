// Holds this browser's device actor (systemId 'secretDevice') and the approval of a new device (SecretApproval)
// while SecretDevice shows it: a person with a secret chat, or one whose background registration handed over (an
// approval is asked or needed). Its code, the device's and the approval's, loads only then.
import { useOwnedActor } from '../app/useOwnedActor';
import { SecretApproval } from './SecretApproval';

export function SecretDeviceOwner(props: { userId: string }) {
  useOwnedActor('secretDevice', { userId: props.userId });
  // A new device of this person may ask for the identity key, or this one may be waiting for that.
  return <SecretApproval userId={props.userId} />;
}
