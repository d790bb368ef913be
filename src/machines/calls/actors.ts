// The calls feature's actors (calls in a conversation and the /calls page) as the app registers them: each line says
// what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their
// effects are the feature's own (src/services/calls/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';
import { callMachine } from './call/call.machine';

export const callsActors = {
  call: { machine: callMachine, lifetime: 'session', systemId: true },
  /** A group's call's hands and moderation, while its overlay is open (its code loads with the overlay). */
  callRoom: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  callsPage: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
