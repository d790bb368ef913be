// The realtime feature's actors (the socket and the link to the server) as the app registers them: each line says what
// the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their effects
// are the feature's own (src/services/realtime/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';
import { connectivityMachine } from './connectivity/connectivity.machine';
import { realtimeMachine } from './realtime/realtime.machine';

export const realtimeActors = {
  realtime: { machine: realtimeMachine, lifetime: 'session', systemId: true },
  connectivity: { machine: connectivityMachine, lifetime: 'session', systemId: true },
  // One queue logic, spawned by the conversation (deletions, reactions) and its pin bar (pinning).
  requestQueue: {
    load: () => import('./requestQueue/requestQueue.machine').then((m) => m.requestQueueMachine),
    lifetime: 'child',
    owner: 'conversation',
  },
} as const satisfies ActorLines;
