import { useSelector } from '@xstate/react';
import type { PasskeyRowMode, PasskeysContext } from '../../machines/account/passkeys/passkeys.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const NO_FORMS: PasskeysContext['rowModes'] = {};

/** «Безопасность» → «Ключи доступа»: its actor (alive while the section is mounted) as values and callbacks. */
export function usePasskeys() {
  const actor = useOwnedActor('passkeys');
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? true);
  const adding = useSelector(actor, (s) => s?.hasTag('adding') ?? false);
  const failed = useSelector(actor, (s) => s?.hasTag('failed') ?? false);
  const passkeys = useSelector(actor, (s) => s?.context.passkeys ?? []);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const notice = useSelector(actor, (s) => s?.context.notice ?? null);
  const rowModes = useSelector(actor, (s) => s?.context.rowModes ?? NO_FORMS);
  return {
    busy,
    adding,
    failed,
    passkeys,
    error,
    notice,
    /** What a passkey's row shows: its buttons, or its rename or remove form. */
    rowMode: (id: string): PasskeyRowMode => rowModes[id] ?? 'view',
    onOpenRename: (id: string) => actor.send({ type: 'passkeys.openRename', id }),
    onOpenRemove: (id: string) => actor.send({ type: 'passkeys.openRemove', id }),
    onCloseForm: (id: string) => actor.send({ type: 'passkeys.closeForm', id }),
    onAdd: (name: string, password: string) => actor.send({ type: 'passkeys.add', name, password }),
    onRename: (id: string, name: string) => actor.send({ type: 'passkeys.rename', id, name }),
    onRemove: (id: string, password: string) => actor.send({ type: 'passkeys.remove', id, password }),
    onRetry: () => actor.send({ type: 'passkeys.retry' }),
  };
}
export type PasskeysViewProps = ReturnType<typeof usePasskeys>;
