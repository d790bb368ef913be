import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';

/** «Безопасность» → «Ключи доступа»: its actor (alive while the section is mounted) as values and callbacks. */
export function usePasskeys() {
  const actor = useOwnedActor('passkeys');
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? true);
  const adding = useSelector(actor, (s) => s?.hasTag('adding') ?? false);
  const failed = useSelector(actor, (s) => s?.hasTag('failed') ?? false);
  const passkeys = useSelector(actor, (s) => s?.context.passkeys ?? []);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const notice = useSelector(actor, (s) => s?.context.notice ?? null);
  return {
    busy,
    adding,
    failed,
    passkeys,
    error,
    notice,
    onAdd: (name: string, password: string) => actor.send({ type: 'passkeys.add', name, password }),
    onRename: (id: string, name: string) => actor.send({ type: 'passkeys.rename', id, name }),
    onRemove: (id: string, password: string) => actor.send({ type: 'passkeys.remove', id, password }),
    onRetry: () => actor.send({ type: 'passkeys.retry' }),
  };
}
export type PasskeysViewProps = ReturnType<typeof usePasskeys>;
