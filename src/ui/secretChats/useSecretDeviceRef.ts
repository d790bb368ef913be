// The device actor (systemId 'secretDevice') as it comes and goes: it is spawned once its code has loaded, often
// after the views that read it have mounted, so they follow the root's children rather than look it up once.
import type { SecretDeviceRef } from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { useRunningActor } from '../app/useOwnedActor';

export function useSecretDeviceRef(): SecretDeviceRef | undefined {
  return useRunningActor('secretDevice');
}
