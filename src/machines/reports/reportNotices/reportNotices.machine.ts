// Report outcomes (protocol: reportNotices.protocol.ts): loads the unseen notices once, hears new ones live, shows
// each until dismissed and marks what is shown as seen on the server (a failure to mark leaves them for the next
// sign-in, where they show again).
import { assign, setup } from 'xstate';
import { listenToServer } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import type {
  ReportNotice,
  ReportNoticesContext,
  ReportNoticesEffects,
  ReportNoticesEvent,
} from './reportNotices.protocol';

export * from './reportNotices.protocol';

export const reportNoticesServerEvents = listenToServer<ReportNoticesEvent>({
  'report:resolved': (p) => ({ type: 'notices.arrived', notice: p.notice }),
});

const add = (context: ReportNoticesContext, notices: ReportNotice[]) => {
  const fresh = notices.filter((n) => !context.shown.some((s) => s.id === n.id));
  return { shown: [...context.shown, ...fresh], unseen: [...context.unseen, ...fresh.map((n) => n.id)] };
};

export const reportNoticesMachine = setup({
  types: { context: {} as ReportNoticesContext, events: {} as ReportNoticesEvent },
  actors: {
    serverEvents: reportNoticesServerEvents,
    loadNotices: notWired('reportNotices.loadNotices') as ReportNoticesEffects['loadNotices'],
    markSeen: notWired('reportNotices.markSeen') as ReportNoticesEffects['markSeen'],
  },
  guards: { hasUnseen: ({ context }) => context.unseen.length > 0 },
}).createMachine({
  id: 'reportNotices',
  context: { shown: [], unseen: [], marking: [] },
  invoke: { id: 'serverEvents', src: 'serverEvents' },
  on: {
    'notices.arrived': { actions: assign(({ context, event }) => add(context, [event.notice])) },
    'notices.dismiss': {
      actions: assign({ shown: ({ context, event }) => context.shown.filter((n) => n.id !== event.id) }),
    },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadNotices',
        src: 'loadNotices',
        onDone: { target: 'idle', actions: assign(({ context, event }) => add(context, event.output)) },
        onError: 'idle',
      },
    },
    idle: { always: { guard: 'hasUnseen', target: 'marking' } },
    marking: {
      entry: assign({ marking: ({ context }) => context.unseen.slice(0, 100) }),
      invoke: {
        id: 'markSeen',
        src: 'markSeen',
        input: ({ context }) => ({ ids: context.marking }),
        onDone: {
          target: 'idle',
          actions: assign({
            unseen: ({ context }) => context.unseen.filter((id) => !context.marking.includes(id)),
            marking: [],
          }),
        },
        onError: { target: 'settled', actions: assign({ unseen: [], marking: [] }) },
      },
    },
    // Marking failed: what is shown stays; the server keeps the notices for the next sign-in.
    settled: { always: { guard: 'hasUnseen', target: 'marking' } },
  },
});
