// The approval of a new device of this person (registry line 'secretApproval', owned while the device holder is shown):
// the request to confirm with its code, or this device's own code while it waits for another device.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { DECLINED_TEXT, waitingText } from '../../machines/secretChats/secretApproval/secretApproval.protocol';

/** «123 456»: the code in two halves, easier to read aloud. */
export const spacedCode = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;

export function useSecretApproval(userId: string) {
  const actor = useOwnedActor('secretApproval', { userId });
  const asking = useSelector(actor, (s) => s?.hasTag('asking') ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const code = useSelector(actor, (s) => s?.context.request?.code ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const ownCode = useSelector(actor, (s) => s?.context.ownCode ?? null);
  const declined = useSelector(actor, (s) => s?.hasTag('declined') ?? false);
  return {
    asking: asking && code !== null,
    busy,
    code: code ? spacedCode(code) : null,
    error,
    waiting: declined ? null : ownCode ? waitingText(spacedCode(ownCode)) : null,
    /** This device's request was declined: the recovery key, another try or a reset. */
    declined: declined ? DECLINED_TEXT : null,
    userId,
    onAskAgain: () => actor.send({ type: 'secretApproval.askAgain' }),
    onReset: () => actor.send({ type: 'secretApproval.reset' }),
    onConfirm: () => actor.send({ type: 'secretApproval.confirm' }),
    onDecline: () => actor.send({ type: 'secretApproval.decline' }),
    onRetry: () => actor.send({ type: 'secretApproval.retry' }),
  };
}
