// The background registration (secretRegistration, owned while the device holder shows it): whether the device
// actor must take over.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';

export function useSecretRegistration(userId: string) {
  const actor = useOwnedActor('secretRegistration', { userId });
  const device = useSelector(actor, (s) => s?.hasTag('device') ?? false);
  return { device };
}
