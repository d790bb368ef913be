// The member card's actor (protocol: memberCard.protocol.ts): where the two people stand is read once, then one
// request at a time — open the direct chat (the chats actor opens it and the address follows) or ask for
// friendship. A refusal (the other's «Кто может мне писать», a block) stays on the card in the server's words.
import { assign, enqueueActions, setup } from 'xstate';
import type { Contact } from '../../../contract/entities';
import { failureMessage } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  CARD_FAILED,
  CARD_TAGS,
  type MemberCardContext,
  type MemberCardEffects,
  type MemberCardEvent,
  type MemberCardInput,
  type Relation,
} from './memberCard.protocol';

export * from './memberCard.protocol';

/** Where the user stands with `contact` (undefined: no contact either way). */
export const relationOf = (contact: Pick<Contact, 'status' | 'direction'> | undefined): Relation =>
  !contact ? 'none' : contact.status === 'ACCEPTED' ? 'friend' : contact.direction;

export const memberCardMachine = setup({
  types: {
    context: {} as MemberCardContext,
    events: {} as MemberCardEvent,
    input: {} as MemberCardInput,
  },
  actors: {
    loadRelation: notWired('memberCard.loadRelation') as MemberCardEffects['loadRelation'],
    openDirect: notWired('memberCard.openDirect') as MemberCardEffects['openDirect'],
    addContact: notWired('memberCard.addContact') as MemberCardEffects['addContact'],
  },
  guards: {
    writeAtOnce: ({ context }) => context.write,
    mayBefriend: ({ context }) => context.relation === 'none',
  },
}).createMachine({
  id: 'memberCard',
  context: ({ input }) => ({ user: input.user, write: input.write === true, relation: null, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'writeAtOnce', target: 'openingChat' }, { target: 'loading' }],
    },
    loading: {
      tags: [CARD_TAGS.loading],
      invoke: {
        src: 'loadRelation',
        input: ({ context }) => ({ userId: context.user.id }),
        onDone: { target: 'shown', actions: assign({ relation: ({ event }) => event.output }) },
        // The card still shows the person and «Написать»; friendship is not offered blind.
        onError: { target: 'shown' },
      },
      // Writing needs no relation: a click before it has loaded opens the chat all the same.
      on: { 'card.write': { target: 'openingChat' }, 'card.close': { target: 'done' } },
    },
    shown: {
      on: {
        'card.write': { target: 'openingChat' },
        'card.befriend': { guard: 'mayBefriend', target: 'requestingFriendship' },
        'card.close': { target: 'done' },
      },
    },
    openingChat: {
      tags: [CARD_TAGS.busy],
      entry: assign({ error: null }),
      invoke: {
        src: 'openDirect',
        input: ({ context }) => ({ userId: context.user.id }),
        onDone: {
          target: 'done',
          actions: enqueueActions(({ event, system, enqueue }) => {
            const chats = chatsInbox(system);
            if (chats) enqueue.sendTo(chats, { type: 'chats.open', conversationId: event.output.conversation.id });
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureMessage(event.error, CARD_FAILED) }),
        },
      },
    },
    requestingFriendship: {
      tags: [CARD_TAGS.busy],
      entry: assign({ error: null }),
      invoke: {
        src: 'addContact',
        input: ({ context }) => ({ identifier: context.user.eblid }),
        onDone: { target: 'shown', actions: assign({ relation: ({ event }) => relationOf(event.output.contact) }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureMessage(event.error, CARD_FAILED) }),
        },
      },
    },
    failed: {
      tags: [CARD_TAGS.failed],
      on: {
        'card.dismiss': { target: 'shown', actions: assign({ error: null }) },
        'card.write': { target: 'openingChat' },
        'card.befriend': { guard: 'mayBefriend', target: 'requestingFriendship' },
        'card.close': { target: 'done' },
      },
    },
    done: { tags: [CARD_TAGS.done], type: 'final' },
  },
});
