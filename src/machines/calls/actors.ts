// The calls feature's actors (calls in a conversation and the /calls page) as the app registers them: each line says
// what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their
// effects are the feature's own (src/services/calls/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const callsActors = {
  // For the session (a call goes on from page to page). A call rings only over the realtime connection, which opens
  // once the chat list has painted: its code comes then, and the connection waits for it (src/machines/app/wiring.ts).
  call: { load: 'wired', lifetime: 'session', systemId: true },
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
