// The session feature's actors (who is signed in, sign-outs that wait for the network, the offline store) as the app
// registers them: each line says what the actor is and how long it lives. src/machines/app/registry.ts concatenates
// every feature's lines; their effects are the feature's own (src/services/session/effects.ts); src/machines/README.md
// explains the fields.
import type { ActorLines } from '../shared/actor-line';
import { offlineStoreMachine } from './offlineStore/offlineStore.machine';
import { sessionMachine } from './session/session.machine';
import { signOutQueueMachine } from './signOutQueue/signOutQueue.machine';

export const sessionActors = {
  session: {
    machine: sessionMachine,
    lifetime: 'session',
    systemId: true,
    input: (app) => ({ stored: app?.stored ?? null }),
  },
  signOutQueue: { machine: signOutQueueMachine, lifetime: 'session', systemId: true },
  offlineStore: { machine: offlineStoreMachine, lifetime: 'session', systemId: true },
} as const satisfies ActorLines;
