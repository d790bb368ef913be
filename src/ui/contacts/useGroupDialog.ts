import { useSelector } from '@xstate/react';
import { filterContacts } from '../../machines/contacts/contacts/contact-list';
import type { GroupDialogEvent, GroupDialogRef } from '../../machines/contacts/groupDialog/groupDialog.protocol';
import { useSystemActor } from '../app/RuntimeContext';

/**
 * The group dialog's view of its actor (running while the dialog is open) and of the friends (systemId
 * 'contacts'); its owner says whether it is open and opens it.
 */
export function useGroupDialog(actor: GroupDialogRef | undefined, owner: { open: boolean; onOpen(): void }) {
  const contacts = useSystemActor('contacts');
  const title = useSelector(actor, (s) => s?.context.title ?? '');
  const selected = useSelector(actor, (s) => s?.context.selected ?? []);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const all = useSelector(contacts, (s) => s?.context.contacts ?? []);
  const friends = filterContacts(all, 'accepted').map((c) => c.friend);

  const send = (e: GroupDialogEvent) => actor?.send(e);
  return {
    open: owner.open,
    title,
    selected,
    busy,
    error,
    friends,
    onOpen: owner.onOpen,
    onClose: () => send({ type: 'group.close' }),
    onToggle: (userId: string) => send({ type: 'group.toggle', userId }),
    onTitle: (value: string) => send({ type: 'group.titleChanged', title: value }),
    onCreate: () => send({ type: 'group.create' }),
  };
}

export type GroupDialogView = ReturnType<typeof useGroupDialog>;
