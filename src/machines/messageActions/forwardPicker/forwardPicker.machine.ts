// The forward picker (protocol: forwardPicker.protocol.ts).
import { and, assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { LIMITS } from '../../../contract/limits';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  FORWARD_FAILED,
  type ForwardPickerContext,
  type ForwardPickerEffects,
  type ForwardPickerEvent,
  type ForwardPickerInput,
} from './forwardPicker.protocol';

export * from './forwardPicker.protocol';

export const forwardPickerMachine = setup({
  types: {
    context: {} as ForwardPickerContext,
    events: {} as ForwardPickerEvent,
    input: {} as ForwardPickerInput | undefined,
  },
  actors: {
    openDirect: notWired('forwardPicker.openDirect') as ForwardPickerEffects['openDirect'],
    forward: notWired('forwardPicker.forward') as ForwardPickerEffects['forward'],
  },
  guards: {
    chosenSome: ({ context }) => context.chosen.length + context.people.length > 0 && context.messageIds.length > 0,
    roomFor: ({ context, event }) => {
      const room = context.chosen.length + context.people.length < LIMITS.forwardTargetsMax;
      if (event.type === 'forward.toggle') return context.chosen.includes(event.conversationId) || room;
      if (event.type === 'forward.togglePerson') return context.people.includes(event.userId) || room;
      return false;
    },
    somePeople: ({ context }) => context.people.length > 0,
    toOne: ({ context }) => context.chosen.length === 1,
  },
  actions: {
    // Forwarded to one chat: it opens, with the copy at the bottom.
    openTarget: enqueueActions(({ context, system, enqueue }) => {
      const chats = chatsInbox(system);
      const id = context.chosen[0];
      if (chats && id) enqueue.sendTo(chats, { type: 'chats.open', conversationId: id });
    }),
  },
}).createMachine({
  id: 'forwardPicker',
  context: ({ input }) => ({ messageIds: input?.messageIds ?? [], query: '', chosen: [], people: [], error: null }),
  initial: 'choosing',
  states: {
    choosing: {
      on: {
        'forward.query': { actions: assign({ query: ({ event }) => event.query.slice(0, 100) }) },
        'forward.toggle': {
          guard: 'roomFor',
          actions: assign({
            chosen: ({ context, event }) =>
              context.chosen.includes(event.conversationId)
                ? context.chosen.filter((id) => id !== event.conversationId)
                : [...context.chosen, event.conversationId],
            error: null,
          }),
        },
        'forward.togglePerson': {
          guard: 'roomFor',
          actions: assign({
            people: ({ context, event }) =>
              context.people.includes(event.userId)
                ? context.people.filter((id) => id !== event.userId)
                : [...context.people, event.userId],
            error: null,
          }),
        },
        'forward.send': [
          { guard: and(['chosenSome', 'somePeople']), target: 'opening' },
          { guard: 'chosenSome', target: 'sending' },
        ],
      },
    },
    // The chosen people's direct chats are made (or found) first; from then on they are chats like the others.
    opening: {
      tags: ['busy'],
      invoke: {
        id: 'openDirect',
        src: 'openDirect',
        input: ({ context }) => ({ userIds: context.people }),
        onDone: {
          target: 'sending',
          actions: assign({
            chosen: ({ context, event }) => [...new Set([...context.chosen, ...event.output])],
            people: [],
          }),
        },
        onError: {
          target: 'choosing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, FORWARD_FAILED) }),
        },
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'forward',
        src: 'forward',
        input: ({ context }) => ({ messageIds: context.messageIds, conversationIds: context.chosen }),
        onDone: [{ guard: 'toOne', target: 'done', actions: 'openTarget' }, { target: 'done' }],
        onError: {
          target: 'choosing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, FORWARD_FAILED) }),
        },
      },
    },
    done: { tags: ['done'], type: 'final' },
  },
});
