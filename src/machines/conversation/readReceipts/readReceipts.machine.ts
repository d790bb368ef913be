// Read marks of one conversation (docs/behaviour.md §4; invoked by the conversation actor as its child 'readReceipts').
// The view reports which messages from others, not yet read by this user, are at least 25 % visible in the
// scroll area; they count as read only while the window has focus (those visible when focus returns count
// then). Receipts are batched for 250 ms into one POST /messages/receipts; a failed post puts its ids back
// in the queue and is tried again after a pause.
import { assertEvent, assign, setup } from 'xstate';
import { LIMITS, TIMINGS } from '../../../contract/limits';
import { watchWindowFocus } from '../../shared/watchers';
import { notWired } from '../../shared/not-wired';
import type {
  ReadReceiptsContext,
  ReadReceiptsEffects,
  ReadReceiptsEvent,
  ReadReceiptsInput,
} from './readReceipts.protocol';

export * from './readReceipts.protocol';

/** Visible ids not yet posted, queued or in flight, when the window has focus. */
function collect(c: ReadReceiptsContext, visible: string[], focused: boolean): string[] {
  if (!focused) return c.queue;
  const known = new Set([...c.done, ...c.queue, ...c.inFlight]);
  const fresh = visible.filter((id) => !known.has(id));
  return fresh.length ? [...c.queue, ...fresh] : c.queue;
}

export const readReceiptsMachine = setup({
  types: {
    context: {} as ReadReceiptsContext,
    events: {} as ReadReceiptsEvent,
    input: {} as ReadReceiptsInput,
  },
  actors: {
    windowFocus: watchWindowFocus('receipts.focus'),
    postReceipts: notWired('readReceipts.postReceipts') as ReadReceiptsEffects['postReceipts'],
  },
  delays: { receiptFlush: TIMINGS.receiptFlushMs, receiptRetry: TIMINGS.receiptRetryMs },
  guards: {
    hasQueue: ({ context }) => context.queue.length > 0,
  },
  actions: {
    see: assign(({ context, event }) => {
      assertEvent(event, 'receipts.visible');
      return { visible: event.messageIds, queue: collect(context, event.messageIds, context.focused) };
    }),
    focus: assign(({ context, event }) => {
      assertEvent(event, 'receipts.focus');
      return { focused: event.focused, queue: collect(context, context.visible, event.focused) };
    }),
    takeBatch: assign(({ context }) => ({
      inFlight: context.queue.slice(0, LIMITS.receiptsBatchMax),
      queue: context.queue.slice(LIMITS.receiptsBatchMax),
    })),
    settle: assign(({ context }) => ({ done: [...context.done, ...context.inFlight], inFlight: [] })),
    requeue: assign(({ context }) => ({ queue: [...context.inFlight, ...context.queue], inFlight: [] })),
  },
}).createMachine({
  id: 'readReceipts',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    focused: false,
    visible: [],
    queue: [],
    inFlight: [],
    done: [],
  }),
  invoke: { id: 'windowFocus', src: 'windowFocus' },
  on: {
    'receipts.visible': { actions: 'see' },
    'receipts.focus': { actions: 'focus' },
  },
  initial: 'idle',
  states: {
    idle: {
      always: { guard: 'hasQueue', target: 'waiting' },
    },
    waiting: {
      after: { receiptFlush: 'posting' },
    },
    posting: {
      entry: 'takeBatch',
      invoke: {
        id: 'postReceipts',
        src: 'postReceipts',
        input: ({ context }) => ({ messageIds: context.inFlight }),
        onDone: { target: 'idle', actions: 'settle' },
        onError: { target: 'retrying', actions: 'requeue' },
      },
    },
    retrying: {
      after: { receiptRetry: 'posting' },
    },
  },
});

export type ReadReceiptsActorRef = import('xstate').ActorRefFrom<typeof readReceiptsMachine>;
