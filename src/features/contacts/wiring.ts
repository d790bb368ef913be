// The contacts feature's actors provided from the real services: the contacts list, the EBLID search and the
// group dialog.
import { fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import type { Services } from '../../core/app/services';
import { contactCodeMachine, type SearchOutput } from './machines/contactCode/contactCode.machine';
import { contactsMachine } from './machines/contacts/contacts.machine';
import { groupDialogMachine } from './machines/groupDialog/groupDialog.machine';

const addContact = (s: Services) =>
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
    },
  });
}

export function wireContactCode(s: Services) {
  return contactCodeMachine.provide({
    actors: {
      // The first result is the one used (docs/behaviour.md §3); the code travels with the answer.
      search: fromPromise<SearchOutput, { code: string }>(async ({ input }) => {
        const { results } = await s.api.call('contactSearch', { query: { code: input.code } });
        return { code: input.code, user: results[0] ?? null };
      }),
      addContact: addContact(s),
    },
  });
}

export function wireGroupDialog(s: Services) {
  return groupDialogMachine.provide({
    actors: {
      createGroup: fromPromise(({ input }: { input: BodyOf<'createConversation'> }) =>
        s.api.call('createConversation', { body: input }),
      ),
    },
  });
}
