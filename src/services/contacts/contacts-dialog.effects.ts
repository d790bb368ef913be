// The chats footer's contact dialogs provided from the real services: the EBLID search and the group dialog. A module
// of its own: it loads when a dialog is first opened (src/machines/app/registry.ts), not with the first bundle.
import { fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import type { Services } from '../app/services';
import {
  type ContactCodeEffects,
  contactCodeMachine,
  type SearchOutput,
} from '../../machines/contacts/contactCode/contactCode.machine';
import { type GroupDialogEffects, groupDialogMachine } from '../../machines/contacts/groupDialog/groupDialog.machine';
import { addContact } from './contacts.effects';

export function wireContactCode(s: Services) {
  return contactCodeMachine.provide({
    actors: {
      // The first result is the one used (docs/behaviour.md §3); the code travels with the answer.
      search: fromPromise<SearchOutput, { code: string }>(async ({ input }) => {
        const { results } = await s.api.call('contactSearch', { query: { code: input.code } });
        return { code: input.code, user: results[0] ?? null };
      }),
      addContact: addContact(s),
    } satisfies ContactCodeEffects,
  });
}

export function wireGroupDialog(s: Services) {
  return groupDialogMachine.provide({
    actors: {
      createGroup: fromPromise(({ input }: { input: BodyOf<'createConversation'> }) =>
        s.api.call('createConversation', { body: input }),
      ),
    } satisfies GroupDialogEffects,
  });
}
