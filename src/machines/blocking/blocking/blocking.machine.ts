// The blocking actor (protocol: blocking.protocol.ts). One change at a time; after one the chats list is fetched
// again (the chat's blockedByMe and presence follow from the server), and the list of the blocked too if shown.
import { assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  BLOCK_FAILED,
  BLOCKED_LIST_FAILED,
  type BlockingContext,
  type BlockingEffects,
  type BlockingEvent,
  type BlockingInput,
} from './blocking.protocol';

export * from './blocking.protocol';

export const blockingMachine = setup({
  types: { context: {} as BlockingContext, events: {} as BlockingEvent, input: {} as BlockingInput | undefined },
  // Typed by the port its feature's services implement.
  actors: {
    loadBlocked: notWired('blocking.loadBlocked') as BlockingEffects['loadBlocked'],
    setBlock: notWired('blocking.setBlock') as BlockingEffects['setBlock'],
  },
  guards: {
    // Shown, or asked for at the start: a change made while the first load ran (it cancels it) loads it after.
    listShown: ({ context }) => context.loaded || context.list,
    listAsked: ({ context }) => context.list,
  },
  actions: {
    refreshChats: enqueueActions(({ system, enqueue }) => {
      const chats = chatsInbox(system);
      if (chats) enqueue.sendTo(chats, { type: 'chats.refresh' });
    }),
  },
}).createMachine({
  id: 'blocking',
  context: ({ input }) => ({ users: [], loaded: false, changing: null, error: null, list: input?.list === true }),
  initial: 'start',
  on: {
    'blocking.block': {
      target: '.changing',
      actions: assign({ changing: ({ event }) => ({ userId: event.userId, block: true }), error: null }),
    },
    'blocking.unblock': {
      target: '.changing',
      actions: assign({ changing: ({ event }) => ({ userId: event.userId, block: false }), error: null }),
    },
  },
  states: {
    // Settings shows the list at once; a conversation pane only ever changes one block.
    start: { always: [{ guard: 'listAsked', target: 'loading' }, { target: 'idle' }] },
    idle: { on: { 'blocking.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadBlocked',
        src: 'loadBlocked',
        onDone: { target: 'idle', actions: assign({ users: ({ event }) => event.output, loaded: true }) },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => failureMessage(event.error, BLOCKED_LIST_FAILED) }),
        },
      },
    },
    changing: {
      tags: ['busy'],
      invoke: {
        id: 'setBlock',
        src: 'setBlock',
        input: ({ context }) => context.changing ?? { userId: '', block: false },
        onDone: [
          { guard: 'listShown', target: 'loading', actions: ['refreshChats', assign({ changing: null })] },
          { target: 'idle', actions: ['refreshChats', assign({ changing: null })] },
        ],
        onError: {
          target: 'idle',
          actions: assign({ changing: null, error: ({ event }) => failureMessage(event.error, BLOCK_FAILED) }),
        },
      },
    },
  },
});
