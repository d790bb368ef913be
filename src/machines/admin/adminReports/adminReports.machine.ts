// «Жалобы» (protocol: adminReports.protocol.ts): loads the queue shown («Открытые» or «Закрытые»), resolves one report
// at a time and reads the queue again. Deleting the message and deactivating the sender are asked about first;
// «Отклонить» is not. A refusal keeps the queue and shows the server's words.
import { assertEvent, assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  type AdminReportsContext,
  type AdminReportsEffects,
  type AdminReportsEvent,
  REPORTS_FAILED,
  REPORTS_TAGS,
  RESOLVE_FAILED,
} from './adminReports.protocol';

export * from './adminReports.protocol';

export const adminReportsMachine = setup({
  types: { context: {} as AdminReportsContext, events: {} as AdminReportsEvent },
  actors: {
    loadReports: notWired('adminReports.loadReports') as AdminReportsEffects['loadReports'],
    resolve: notWired('adminReports.resolve') as AdminReportsEffects['resolve'],
  },
  guards: {
    asksFirst: ({ event }) => {
      assertEvent(event, 'reports.resolve');
      return event.action !== 'dismiss';
    },
  },
  actions: {
    takePending: assign({
      pending: ({ event }) => {
        assertEvent(event, 'reports.resolve');
        return { reportId: event.reportId, action: event.action };
      },
      error: null,
    }),
  },
}).createMachine({
  id: 'adminReports',
  context: { queue: 'open', reports: [], pending: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: [REPORTS_TAGS.busy],
      invoke: {
        id: 'loadReports',
        src: 'loadReports',
        input: ({ context }) => ({ queue: context.queue }),
        onDone: { target: 'ready', actions: assign({ reports: ({ event }) => event.output }) },
        onError: {
          target: 'ready',
          actions: assign({ reports: [], error: ({ event }) => failureMessage(event.error, REPORTS_FAILED) }),
        },
      },
    },
    ready: {
      on: {
        'reports.show': { target: 'loading', actions: assign({ queue: ({ event }) => event.queue, error: null }) },
        'reports.reload': { target: 'loading', actions: assign({ error: null }) },
        'reports.resolve': [
          { guard: 'asksFirst', target: 'confirming', actions: 'takePending' },
          { target: 'resolving', actions: 'takePending' },
        ],
      },
    },
    confirming: {
      tags: [REPORTS_TAGS.confirming],
      on: {
        'reports.confirm': 'resolving',
        'reports.cancel': { target: 'ready', actions: assign({ pending: null }) },
      },
    },
    resolving: {
      tags: [REPORTS_TAGS.busy],
      invoke: {
        id: 'resolve',
        src: 'resolve',
        input: ({ context }) => ({
          reportId: context.pending?.reportId ?? '',
          action: context.pending?.action ?? 'dismiss',
        }),
        onDone: { target: 'loading', actions: assign({ pending: null }) },
        onError: {
          target: 'ready',
          actions: assign({ pending: null, error: ({ event }) => failureMessage(event.error, RESOLVE_FAILED) }),
        },
      },
    },
  },
});
