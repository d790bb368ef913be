// The scheduler actor (protocol: scheduler.protocol.ts): loads the chat's waiting items, then choosing a time →
// confirming → saving for a new item, a reminder or an edit; «Отправить сейчас» and deleting from the list.
import { assertEvent, assign, emit, setup } from 'xstate';
import type { ScheduledItem } from '../../../contract/api';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  SCHEDULE_FAILED,
  SCHEDULED_ACTION_FAILED,
  SCHEDULED_LOAD_FAILED,
  type ScheduleDraft,
  type SchedulerContext,
  type SchedulerEffects,
  type SchedulerEmitted,
  type SchedulerEvent,
  type SchedulerInput,
} from './scheduler.protocol';

export * from './scheduler.protocol';

const byTime = (items: ScheduledItem[]) =>
  [...items].sort((a, b) => (a.sendAt === b.sendAt ? (a.id < b.id ? -1 : 1) : a.sendAt < b.sendAt ? -1 : 1));

export const schedulerMachine = setup({
  types: {
    context: {} as SchedulerContext,
    events: {} as SchedulerEvent,
    emitted: {} as SchedulerEmitted,
    input: {} as SchedulerInput | undefined,
  },
  actors: {
    load: notWired('scheduler.load') as SchedulerEffects['load'],
    save: notWired('scheduler.save') as SchedulerEffects['save'],
    sendNow: notWired('scheduler.sendNow') as SchedulerEffects['sendNow'],
    remove: notWired('scheduler.remove') as SchedulerEffects['remove'],
  },
  actions: {
    takeItems: assign((_, { items }: { items: ScheduledItem[] }) => ({ items: byTime(items) })),
    /** The saved item in the list (a reminder lands in «Избранное», so another chat's list does not show it). */
    takeSaved: assign(({ context }, { item }: { item: ScheduledItem }) => ({
      items:
        item.conversationId === context.conversationId
          ? byTime([...context.items.filter((i) => i.id !== item.id), item])
          : context.items.filter((i) => i.id !== item.id),
      draft: null,
      at: null,
      error: null,
    })),
    announceSaved: emit((_, { item }: { item: ScheduledItem }) => ({ type: 'scheduler.saved' as const, item })),
    fail: assign((_, { error, fallback }: { error: unknown; fallback: string }) => ({
      error: failureMessage(error, fallback),
    })),
    clearDraft: assign({ draft: null, at: null, error: null }),
  },
}).createMachine({
  id: 'scheduler',
  context: ({ input }) => ({
    conversationId: input?.conversationId ?? '',
    items: [],
    draft: null,
    at: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading', 'busy'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: { target: 'idle', actions: { type: 'takeItems', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: SCHEDULED_LOAD_FAILED }) },
        },
      },
    },
    failed: { on: { 'scheduled.retry': { target: 'loading', actions: assign({ error: null }) } } },
    idle: {
      on: {
        'schedule.start': {
          target: 'choosing',
          actions: assign(({ event }) => ({ draft: event.draft, at: null, error: null })),
        },
        'scheduled.sendNow': { target: 'sendingNow', actions: assign({ error: null }) },
        'scheduled.delete': { target: 'deleting', actions: assign({ error: null }) },
      },
    },
    choosing: {
      tags: ['choosing'],
      on: {
        'schedule.text': {
          actions: assign(({ context, event }) => ({
            draft: context.draft ? { ...context.draft, content: event.content } : null,
          })),
        },
        'schedule.pick': { target: 'confirming', actions: assign({ at: ({ event }) => event.at, error: null }) },
        'schedule.cancel': { target: 'idle', actions: 'clearDraft' },
      },
    },
    confirming: {
      tags: ['confirming'],
      on: {
        'schedule.confirm': 'saving',
        'schedule.back': { target: 'choosing', actions: assign({ at: null }) },
        'schedule.cancel': { target: 'idle', actions: 'clearDraft' },
      },
    },
    saving: {
      tags: ['busy', 'confirming'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({
          conversationId: context.conversationId,
          draft: context.draft as ScheduleDraft,
          at: context.at as string,
        }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'announceSaved', params: ({ event }) => event.output },
            { type: 'takeSaved', params: ({ event }) => event.output },
          ],
        },
        // Back to the times with the server's reason (a time past, too far ahead…).
        onError: {
          target: 'choosing',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: SCHEDULE_FAILED }) },
        },
      },
    },
    sendingNow: {
      tags: ['busy'],
      invoke: {
        id: 'sendNow',
        src: 'sendNow',
        input: ({ event }) => {
          assertEvent(event, 'scheduled.sendNow');
          return { id: event.id };
        },
        // The list again: the item is gone, or still there when another device sent it first.
        onDone: { target: 'loading', actions: assign({ error: null }) },
        onError: {
          target: 'loading',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: SCHEDULED_ACTION_FAILED }) },
        },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ event }) => {
          assertEvent(event, 'scheduled.delete');
          return { id: event.id };
        },
        onDone: 'loading',
        onError: {
          target: 'loading',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: SCHEDULED_ACTION_FAILED }) },
        },
      },
    },
  },
});
