import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';

/** «Удалить аккаунт»: its actor (alive while the section is mounted) as plain values and a callback. */
export function useAccountDeletion() {
  const actor = useOwnedActor('accountDeletion');
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  return {
    busy,
    error,
    onDelete: (password: string, confirmation: string) =>
      actor.send({ type: 'account.delete', password, confirmation }),
  };
}
export type AccountDeletionViewProps = ReturnType<typeof useAccountDeletion>;
