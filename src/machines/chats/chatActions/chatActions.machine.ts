// The chat list menu's actor (protocol: chatActions.protocol.ts). Clearing and deleting ask first; one request at a
// time. After a clear the list is read again and, if it is the open one, the conversation opens again.
import { assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import { chatList, chatsInbox } from '../chats/chats.protocol';
import {
  CHAT_ACTION_FAILED,
  CHAT_ACTION_TAGS,
  type ChatAction,
  type ChatActionsContext,
  type ChatActionsEffects,
  type ChatActionsEvent,
} from './chatActions.protocol';

export * from './chatActions.protocol';

export const chatActionsMachine = setup({
  types: { context: {} as ChatActionsContext, events: {} as ChatActionsEvent },
  actors: {
    runChatAction: notWired('chatActions.runChatAction') as ChatActionsEffects['runChatAction'],
  },
  guards: {
    asksFirst: ({ event }) => event.type === 'chatActions.run' && event.action.kind !== 'settings',
  },
  actions: {
    /** After a clear: the list, and the conversation if it is the open one. */
    readAgain: enqueueActions(({ context, system, enqueue }) => {
      const chats = chatsInbox(system);
      if (!chats || context.pending?.kind !== 'clear') return;
      enqueue.sendTo(chats, { type: 'chats.refresh' });
      const id = context.pending.conversationId;
      // The open conversation keeps what it loaded: it opens again, from the (now empty) history.
      if (chatList(system)?.selectedId === id) {
        enqueue.sendTo(chats, { type: 'chats.open', conversationId: id, again: true });
      }
    }),
  },
}).createMachine({
  id: 'chatActions',
  context: { pending: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'chatActions.run': [
          {
            guard: 'asksFirst',
            target: 'confirming',
            actions: assign({ pending: ({ event }) => event.action, error: null }),
          },
          { target: 'working', actions: assign({ pending: ({ event }) => event.action, error: null }) },
        ],
      },
    },
    confirming: {
      tags: [CHAT_ACTION_TAGS.confirming],
      on: {
        'chatActions.confirm': 'working',
        'chatActions.cancel': { target: 'idle', actions: assign({ pending: null }) },
      },
    },
    working: {
      tags: [CHAT_ACTION_TAGS.busy],
      invoke: {
        id: 'runChatAction',
        src: 'runChatAction',
        input: ({ context }) => context.pending as ChatAction,
        onDone: { target: 'idle', actions: ['readAgain', assign({ pending: null })] },
        onError: {
          target: 'idle',
          actions: assign({ pending: null, error: ({ event }) => failureMessage(event.error, CHAT_ACTION_FAILED) }),
        },
      },
    },
  },
});
