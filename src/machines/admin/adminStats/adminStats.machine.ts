// «Сервер» (protocol: adminStats.protocol.ts): one request, «Обновить» reads the figures again; a failure keeps the
// last figures and says why.
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  type AdminStatsContext,
  type AdminStatsEffects,
  type AdminStatsEvent,
  STATS_FAILED,
} from './adminStats.protocol';

export * from './adminStats.protocol';

export const adminStatsMachine = setup({
  types: { context: {} as AdminStatsContext, events: {} as AdminStatsEvent },
  actors: {
    loadStats: notWired('adminStats.loadStats') as AdminStatsEffects['loadStats'],
  },
}).createMachine({
  id: 'adminStats',
  context: { stats: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadStats',
        src: 'loadStats',
        onDone: { target: 'ready', actions: assign({ stats: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, STATS_FAILED) }),
        },
      },
    },
    ready: { on: { 'stats.reload': 'loading' } },
  },
});
