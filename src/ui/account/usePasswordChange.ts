import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import type { PasswordFields } from '../../machines/account/passwordChange/passwordChange.protocol';

/** «Сменить пароль»: its actor (alive while the form is mounted) as plain values and callbacks. */
export function usePasswordChange() {
  const actor = useOwnedActor('passwordChange');
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const changed = useSelector(actor, (s) => s?.hasTag('saved') ?? false);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  return {
    busy,
    changed,
    error,
    onSubmit: (fields: PasswordFields) => actor.send({ type: 'password.submit', fields }),
    onEdit: () => actor.send({ type: 'password.edit' }),
  };
}
export type PasswordViewProps = ReturnType<typeof usePasswordChange>;
