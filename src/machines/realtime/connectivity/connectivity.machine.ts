// The connectivity ping (docs/behaviour.md §7 Connectivity ping): every 15 s a request to the product's own
// site, its latency shown in the shared layout. A failed ping marks the connection as offline until the next
// one succeeds.
import { assign, setup } from 'xstate';
import { TIMINGS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import type { ConnectivityContext, ConnectivityEffects, ConnectivityEvent } from './connectivity.protocol';

export * from './connectivity.protocol';

export const connectivityMachine = setup({
  types: { context: {} as ConnectivityContext, events: {} as ConnectivityEvent },
  actors: {
    ping: notWired('connectivity.ping') as ConnectivityEffects['ping'],
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
