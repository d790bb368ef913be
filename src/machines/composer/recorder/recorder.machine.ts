// The voice recorder (systemId 'recorder', the composer's child):
// idle ──start──► active (the recording actor runs: asking permission → recording → stopping) ──done──► idle,
// handing the recording to the composer, whose outbox uploads and sends it like any file (that is the
// «sending» part: the outbox item's progress and retry). Cancel (or Escape) at any point drops everything;
// a refused or missing microphone ends in failed with a Russian message, a page opened over plain http in failed
// with where the https one is. Recording stops by itself after
// VOICE.maxDurationMs (5 minutes) and is sent as it is.
import { assign, enqueueActions, sendTo, setup } from 'xstate';
import { VOICE } from '../../../contract/limits';
import { notWiredCallback } from '../../shared/not-wired';
import type {
  RecorderContext,
  RecorderEffects,
  RecorderEvent,
  RecorderParentEvent,
  RecordingCommand,
} from './recorder.protocol';

export * from './recorder.protocol';

const fresh: RecorderContext = { thread: null, elapsedMs: 0, level: 0, error: null, insecure: null };

export const recorderMachine = setup({
  types: { context: {} as RecorderContext, events: {} as RecorderEvent },
  actors: {
    record: notWiredCallback('recorder.record') as RecorderEffects['record'],
  },
  actions: {
    /** A new recording, for the thread the start names (none: the chat in front). */
    started: assign(({ event }) => ({
      ...fresh,
      thread: event.type === 'recorder.start' ? (event.thread ?? null) : null,
    })),
    stop: sendTo('record', { type: 'recording.stop' } satisfies RecordingCommand),
    /** Guarded so the machine also runs alone (its graph test). */
    handOver: enqueueActions(({ context, self, event, enqueue }) => {
      if (event.type !== 'recording.done' || !self._parent) return;
      const { thread } = context;
      enqueue.sendParent({
        type: 'recorder.recorded',
        recording: event.recording,
        ...(thread ? { thread } : {}),
      } satisfies RecorderParentEvent);
    }),
  },
  delays: { maxDuration: VOICE.maxDurationMs },
}).createMachine({
  id: 'recorder',
  context: fresh,
  initial: 'idle',
  states: {
    idle: {
      on: { 'recorder.start': { target: 'active', actions: 'started' } },
    },
    active: {
      tags: ['open'],
      invoke: { id: 'record', src: 'record' },
      on: {
        'recorder.cancel': { target: 'idle', actions: assign(fresh) },
        'recording.failed': { target: 'failed', actions: assign({ error: ({ event }) => event.message, level: 0 }) },
        'recording.insecure': {
          target: 'failed',
          actions: assign({ insecure: ({ event }) => ({ secureUrl: event.secureUrl }), level: 0 }),
        },
      },
      initial: 'asking',
      states: {
        asking: {
          tags: ['asking'],
          on: { 'recording.started': 'recording' },
        },
        recording: {
          tags: ['recording'],
          on: {
            'recording.level': {
              actions: assign({ level: ({ event }) => event.level, elapsedMs: ({ event }) => event.elapsedMs }),
            },
            'recorder.send': { target: 'stopping', actions: 'stop' },
          },
          after: { maxDuration: { target: 'stopping', actions: 'stop' } },
        },
        stopping: {
          tags: ['busy'],
          on: {
            'recording.done': {
              target: '#recorder.idle',
              actions: ['handOver', assign(fresh)],
            },
          },
        },
      },
    },
    failed: {
      tags: ['failed'],
      on: {
        'recorder.start': { target: 'active', actions: 'started' },
        'recorder.dismiss': { target: 'idle', actions: assign(fresh) },
      },
    },
  },
});
