// The approval of a new device of this person (systemId 'secretApproval', owned while the device holder is shown):
// the request to confirm with its code, or this device's own code while it waits for another device.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { waitingText } from '../../machines/secretChats/secretApproval/secretApproval.protocol';

/** «123 456»: the code in two halves, easier to read aloud. */
export const spacedCode = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;

export function useSecretApproval(userId: string) {
  const actor = useOwnedActor('secretApproval', { userId });
  const asking = useSelector(actor, (s) => s?.hasTag('asking') ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const code = useSelector(actor, (s) => s?.context.request?.code ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const ownCode = useSelector(actor, (s) => s?.context.ownCode ?? null);
  return {
    asking: asking && code !== null,
    busy,
    code: code ? spacedCode(code) : null,
    error,
    waiting: ownCode ? waitingText(spacedCode(ownCode)) : null,
    onConfirm: () => actor?.send({ type: 'secretApproval.confirm' }),
    onDecline: () => actor?.send({ type: 'secretApproval.decline' }),
    onRetry: () => actor?.send({ type: 'secretApproval.retry' }),
  };
}
