// The member card's effects: where the two people stand (the contacts list), the direct chat, a friend request.
import { fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import {
  type MemberCardEffects,
  memberCardMachine,
  relationOf,
} from '../../machines/contacts/memberCard/memberCard.machine';
import type { Services } from '../app/services';

export const wireMemberCard = (s: Services) =>
  memberCardMachine.provide({
    actors: {
      loadRelation: fromPromise(async ({ input }: { input: { userId: string } }) => {
        const { contacts } = await s.api.call('contacts', { query: { filter: 'all' } });
        return relationOf(contacts.find((c) => c.friend.id === input.userId));
      }),
      openDirect: fromPromise(({ input }: { input: BodyOf<'conversationWith'> }) =>
        s.api.call('conversationWith', { body: input }),
      ),
      addContact: fromPromise(({ input }: { input: BodyOf<'contactAdd'> }) =>
        s.api.call('contactAdd', { body: input }),
      ),
    } satisfies MemberCardEffects,
  });
