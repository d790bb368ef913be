import { useSelector } from '@xstate/react';
import type { ContactCodeEvent, ContactCodeRef } from '../../machines/contacts/contactCode/contactCode.protocol';

/** An EBLID search panel's view of its contactCode actor (undefined while it is not running). */
export function useContactCode(actor: ContactCodeRef | undefined) {
  const digits = useSelector(actor, (s) => s?.context.digits ?? ['', '', '', '']);
  const focus = useSelector(actor, (s) => s?.context.focus ?? 0);
  const result = useSelector(actor, (s) => s?.context.result ?? null);
  const notice = useSelector(actor, (s) => s?.context.notice ?? null);
  const searching = useSelector(actor, (s) => s?.hasTag('searching') ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const send = (e: ContactCodeEvent) => actor?.send(e);
  return {
    digits,
    focus,
    result,
    notice,
    searching,
    busy,
    onType: (index: number, value: string) => send({ type: 'code.typed', index, value }),
    onBackspace: (index: number) => send({ type: 'code.backspace', index }),
    onPaste: (text: string) => send({ type: 'code.pasted', text }),
    onFocusBox: (index: number) => send({ type: 'code.focused', index }),
    onAdd: () => send({ type: 'code.add' }),
    onReset: () => send({ type: 'code.reset' }),
  };
}

export type ContactCodeView = ReturnType<typeof useContactCode>;
