// «Экспорт данных» (docs/accounts.md): loads the newest archive; «Подготовить архив» starts one; while it is built
// its status is asked every TIMINGS.exportPollMs; once ready the view offers its signed link, which is fetched
// again before it runs out (EXPORT.linkMs). A status the server no longer has (expired) ends back at the start.
import { assign, setup } from 'xstate';
import { failureMessage, failureOf } from '../../../contract/failure';
import { EXPORT, TIMINGS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import {
  type DataExport,
  type DataExportContext,
  type DataExportEffects,
  type DataExportEvent,
  EXPORT_FAILED,
  EXPORT_START_FAILED,
} from './dataExport.protocol';

export * from './dataExport.protocol';

type Done = { output: DataExport | null };

export const dataExportMachine = setup({
  types: { context: {} as DataExportContext, events: {} as DataExportEvent },
  actors: {
    loadLatest: notWired('dataExport.loadLatest') as DataExportEffects['loadLatest'],
    startExport: notWired('dataExport.startExport') as DataExportEffects['startExport'],
    loadStatus: notWired('dataExport.loadStatus') as DataExportEffects['loadStatus'],
  },
  delays: {
    poll: TIMINGS.exportPollMs,
    // A minute before the signed link runs out.
    linkRefresh: EXPORT.linkMs - 60_000,
  },
  guards: {
    building: (_, params: Done) => params.output?.status === 'building',
    ready: (_, params: Done) => params.output?.status === 'ready',
    failed: (_, params: Done) => params.output?.status === 'failed',
    /** The server no longer has it (expired, swept): nothing to follow. */
    gone: (_, params: { error: unknown }) => failureOf(params.error).status === 404,
  },
  actions: {
    keep: assign({ current: (_, params: Done) => params.output, error: null }),
  },
}).createMachine({
  id: 'dataExport',
  context: { current: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadLatest',
        onDone: [
          {
            guard: { type: 'building', params: ({ event }) => event },
            target: 'building',
            actions: { type: 'keep', params: ({ event }) => event },
          },
          {
            guard: { type: 'ready', params: ({ event }) => event },
            target: 'ready',
            actions: { type: 'keep', params: ({ event }) => event },
          },
          {
            guard: { type: 'failed', params: ({ event }) => event },
            target: 'failed',
            actions: { type: 'keep', params: ({ event }) => event },
          },
          { target: 'idle', actions: { type: 'keep', params: ({ event }) => event } },
        ],
        // Without the newest archive the section still offers a new one.
        onError: 'idle',
      },
    },
    idle: { on: { 'export.start': 'starting' } },
    starting: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        src: 'startExport',
        onDone: [
          {
            guard: { type: 'ready', params: ({ event }) => event },
            target: 'ready',
            actions: { type: 'keep', params: ({ event }) => event },
          },
          { target: 'building', actions: { type: 'keep', params: ({ event }) => event } },
        ],
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => failureMessage(event.error, EXPORT_START_FAILED) }),
        },
      },
    },
    building: {
      tags: ['building'],
      after: { poll: 'polling' },
    },
    polling: {
      tags: ['building'],
      invoke: {
        src: 'loadStatus',
        input: ({ context }) => ({ id: context.current?.id ?? '' }),
        onDone: [
          {
            guard: { type: 'ready', params: ({ event }) => event },
            target: 'ready',
            actions: { type: 'keep', params: ({ event }) => event },
          },
          {
            guard: { type: 'failed', params: ({ event }) => event },
            target: 'failed',
            actions: { type: 'keep', params: ({ event }) => event },
          },
          { target: 'building', actions: { type: 'keep', params: ({ event }) => event } },
        ],
        onError: [
          { guard: { type: 'gone', params: ({ event }) => event }, target: 'idle', actions: assign({ current: null }) },
          // Offline for a moment: ask again at the next tick.
          { target: 'building' },
        ],
      },
    },
    ready: {
      on: { 'export.start': 'starting' },
      after: { linkRefresh: 'refreshing' },
    },
    refreshing: {
      invoke: {
        src: 'loadStatus',
        input: ({ context }) => ({ id: context.current?.id ?? '' }),
        onDone: { target: 'ready', actions: { type: 'keep', params: ({ event }) => event } },
        onError: [
          { guard: { type: 'gone', params: ({ event }) => event }, target: 'idle', actions: assign({ current: null }) },
          { target: 'ready' },
        ],
      },
      on: { 'export.start': 'starting' },
    },
    failed: {
      entry: assign({ error: EXPORT_FAILED }),
      on: { 'export.start': 'starting' },
    },
  },
});
