// The connectivity ping (docs/behaviour.md §7 Connectivity ping): every 15 s a request to the product's own
// site, its latency shown in the shared layout. A failed ping marks the connection as offline until the next
// one succeeds.
import { assign, type SnapshotFrom, setup } from 'xstate';
import { TIMINGS } from '../../contract/limits';
import { notWired } from '../not-wired';

export interface ConnectivityContext {
  latencyMs: number | null;
  online: boolean | null;
}

export type ConnectivityEvent = { type: 'connectivity.check' };

export const connectivityMachine = setup({
  types: { context: {} as ConnectivityContext, events: {} as ConnectivityEvent },
  actors: {
    /** Resolves the round-trip time in milliseconds. */
    ping: notWired<number>('connectivity.ping'),
  },
  delays: { pingInterval: TIMINGS.pingIntervalMs },
}).createMachine({
  id: 'connectivity',
  context: { latencyMs: null, online: null },
  initial: 'pinging',
  states: {
    pinging: {
      invoke: {
        id: 'ping',
        src: 'ping',
        onDone: { target: 'waiting', actions: assign({ latencyMs: ({ event }) => event.output, online: true }) },
        onError: { target: 'waiting', actions: assign({ latencyMs: null, online: false }) },
      },
    },
    waiting: {
      after: { pingInterval: 'pinging' },
      on: { 'connectivity.check': 'pinging' },
    },
  },
});

export type PingView = { state: 'unknown' } | { state: 'offline' } | { state: 'measured'; latencyMs: number };

/** What the layout shows: not measured yet, no connection, or the last latency. */
export function selectPing(s: SnapshotFrom<typeof connectivityMachine>): PingView {
  if (s.context.online === false) return { state: 'offline' };
  if (s.context.latencyMs === null) return { state: 'unknown' };
  return { state: 'measured', latencyMs: s.context.latencyMs };
}
