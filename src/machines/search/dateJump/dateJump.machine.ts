// «Перейти к дате»: asks the server for the first message of the day the user picked (at or after its start in the
// browser's zone) and opens the conversation there through the chats actor — the jump a search result chosen makes
// (the conversation pages back to the message and flashes it). A day with nothing since, or a refusal, is shown.
// A new day asked while one is looked for replaces it.
import { assign, enqueueActions, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { notWired } from '../../shared/not-wired';
import {
  DATE_JUMP_FAILED,
  type DateJumpContext,
  type DateJumpEffects,
  type DateJumpEvent,
  type DayRequest,
  NOTHING_SINCE_DAY,
} from './dateJump.protocol';

export * from './dateJump.protocol';

export const dateJumpMachine = setup({
  types: {
    context: {} as DateJumpContext,
    events: {} as DateJumpEvent,
  },
  actors: {
    findDay: notWired('dateJump.findDay') as DateJumpEffects['findDay'],
  },
  guards: {
    dayFound: (_, found: { messageId: string | null }) => found.messageId !== null,
  },
  actions: {
    ask: assign(({ event }) => ({ asked: { conversationId: event.conversationId, day: event.day }, error: null })),
    open: enqueueActions(({ context, system, enqueue }, found: { messageId: string | null }) => {
      const chats = chatsInbox(system);
      if (chats && context.asked && found.messageId)
        enqueue.sendTo(chats, {
          type: 'chats.open',
          conversationId: context.asked.conversationId,
          messageId: found.messageId,
        });
    }),
  },
}).createMachine({
  id: 'dateJump',
  context: { asked: null, error: null },
  on: { 'dateJump.go': { target: '.looking', reenter: true, actions: 'ask' } },
  initial: 'idle',
  states: {
    idle: {},
    looking: {
      tags: ['looking'],
      invoke: {
        id: 'findDay',
        src: 'findDay',
        input: ({ context }): DayRequest => context.asked ?? { conversationId: '', day: '' },
        onDone: [
          {
            guard: { type: 'dayFound', params: ({ event }) => event.output },
            target: 'idle',
            actions: { type: 'open', params: ({ event }) => event.output },
          },
          { target: 'failed', actions: assign({ error: NOTHING_SINCE_DAY }) },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureMessage(event.error, DATE_JUMP_FAILED) }),
        },
      },
    },
    failed: { tags: ['failed'] },
  },
});
