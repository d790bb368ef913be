// The dialog «Ключ восстановления»'s view of its actor (registry line 'secretRecovery', alive while the dialog is open).
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import type {
  SecretRecoveryEvent,
  SecretRecoveryInput,
} from '../../machines/secretChats/secretRecovery/secretRecovery.protocol';

export type RecoveryStep = 'busy' | 'idle' | 'phrase' | 'entering' | 'failed' | 'done';

export function useRecoveryDialog(userId: string, mode: SecretRecoveryInput['mode'], onClose: () => void) {
  const actor = useOwnedActor('secretRecovery', { userId, mode } satisfies SecretRecoveryInput);
  const step = useSelector(actor, (s): RecoveryStep => {
    if (!s) return 'busy';
    for (const tag of ['phrase', 'entering', 'busy', 'idle', 'failed', 'done'] as const) if (s.hasTag(tag)) return tag;
    return 'busy';
  });
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? true);
  const hasKey = useSelector(actor, (s) => s?.context.status?.hasKey ?? false);
  const here = useSelector(actor, (s) => s?.context.status?.here ?? false);
  const phrase = useSelector(actor, (s) => s?.context.made?.phrase ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const restored = useSelector(actor, (s) => s?.context.restored ?? null);
  const send = (e: SecretRecoveryEvent) => actor.send(e);
  return {
    mode,
    step,
    busy,
    hasKey,
    here,
    phrase,
    error,
    restored,
    onClose,
    onCreate: () => send({ type: 'secretRecovery.create' }),
    onSaved: () => send({ type: 'secretRecovery.saved' }),
    onEnter: () => send({ type: 'secretRecovery.enter' }),
    onSubmit: (typed: string) => send({ type: 'secretRecovery.submit', phrase: typed }),
    onRemove: () => send({ type: 'secretRecovery.remove' }),
    onBack: () => send({ type: 'secretRecovery.back' }),
    onRetry: () => send({ type: 'secretRecovery.retry' }),
  };
}

export type RecoveryDialogViewProps = ReturnType<typeof useRecoveryDialog>;
