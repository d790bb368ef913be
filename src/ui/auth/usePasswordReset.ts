// The password-reset page: its actor (alive while the page is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { RESET_TAGS, type ResetFields } from '../../machines/auth/passwordReset/passwordReset.protocol';

export function usePasswordReset(token: string) {
  const actor = useOwnedActor('passwordReset', { token });
  return {
    account: useSelector(actor, (s) => s?.context.account ?? null),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    busy: useSelector(actor, (s) => s?.hasTag(RESET_TAGS.busy) ?? true),
    /** The form is shown (ready, or saving). */
    form: useSelector(actor, (s) => s?.hasTag(RESET_TAGS.form) ?? false),
    invalid: useSelector(actor, (s) => s?.hasTag(RESET_TAGS.invalid) ?? false),
    done: useSelector(actor, (s) => s?.hasTag(RESET_TAGS.done) ?? false),
    onSubmit: (fields: ResetFields) => actor.send({ type: 'reset.submit', fields }),
    onRetry: () => actor.send({ type: 'reset.retry' }),
  };
}
export type PasswordResetView = ReturnType<typeof usePasswordReset>;
