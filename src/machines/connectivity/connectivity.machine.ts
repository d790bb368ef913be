// The connectivity ping (spec point 7): every 15 s a request to the product's own site, its latency shown
// in the shared layout. A failed ping marks the connection as offline until the next one succeeds.
import { assign, fromPromise, setup } from 'xstate';
import { TIMINGS } from '../../contract/limits';
import { authApi } from '../../services/auth-api';

export interface ConnectivityContext {
  latencyMs: number | null;
  online: boolean | null;
}

export type ConnectivityEvent = { type: 'connectivity.check' };

export const connectivityMachine = setup({
  types: { context: {} as ConnectivityContext, events: {} as ConnectivityEvent },
  actors: {
    // Resolves the round-trip time in milliseconds.
    ping: fromPromise<number>(async () => {
      const started = performance.now();
      await authApi.health();
      return Math.round(performance.now() - started);
    }),
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
