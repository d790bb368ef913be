import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { ContactsEvent } from '../../machines/contacts/contacts/contacts.protocol';
import { useSystemActor } from '../app/RuntimeContext';

/**
 * The contacts actor (systemId 'contacts') as values and callbacks. Opening a chat selects it in the chats actor;
 * the navigation actor then moves the address to it.
 */
export function useContacts() {
  const actor = useSystemActor('contacts');
  const contacts = useSelector(actor, (s) => s?.context.contacts ?? []);
  const loaded = useSelector(actor, (s) => s?.context.loaded ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const busyId = useSelector(actor, (s) => s?.context.busyId ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const addedNotice = useSelector(actor, (s) => s?.context.addedNotice ?? null);
  const dismissNotice = useCallback(() => actor?.send({ type: 'contacts.dismissNotice' }), [actor]);

  const send = (e: ContactsEvent) => actor?.send(e);
  return {
    actor,
    contacts,
    loaded,
    busy,
    busyId,
    error,
    addedNotice,
    dismissNotice,
    accept: (contactId: string) => send({ type: 'contacts.accept', contactId }),
    reject: (contactId: string) => send({ type: 'contacts.reject', contactId }),
    remove: (contactId: string) => send({ type: 'contacts.remove', contactId }),
    add: (identifier: string) => send({ type: 'contacts.add', identifier }),
    openChat: (userId: string) => send({ type: 'contacts.openChat', userId }),
    dismissError: () => send({ type: 'contacts.dismissError' }),
  };
}
