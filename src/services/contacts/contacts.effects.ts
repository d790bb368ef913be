// The contacts feature's actors provided from the real services: the contacts list (the EBLID search and the group
// dialog load later: dialog-wiring.ts).
import { fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import type { Services } from '../app/services';
import { type ContactsEffects, contactsMachine } from '../../machines/contacts/contacts/contacts.machine';

export const addContact = (s: Services) =>
  fromPromise(({ input }: { input: BodyOf<'contactAdd'> }) => s.api.call('contactAdd', { body: input }));

export function wireContacts(s: Services) {
  return contactsMachine.provide({
    actors: {
      fetchContacts: fromPromise(() => s.api.call('contacts', { query: { filter: 'all' } })),
      respond: fromPromise(({ input }: { input: BodyOf<'contactRespond'> }) =>
        s.api.call('contactRespond', { body: input }),
      ),
      removeContact: fromPromise<unknown, BodyOf<'contactRemove'>>(({ input }) =>
        s.api.call('contactRemove', { body: input }),
      ),
      addContact: addContact(s),
      openDirect: fromPromise(({ input }: { input: BodyOf<'conversationWith'> }) =>
        s.api.call('conversationWith', { body: input }),
      ),
    } satisfies ContactsEffects,
  });
}
