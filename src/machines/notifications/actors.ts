// The notifications feature's actors (sounds, system notifications and Web Push) as the app registers them: each line
// says what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their
// effects are the feature's own (src/services/notifications/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const notificationsActors = {
  // For the session. What it announces (a message counted unread, a ring) comes over the realtime connection, which
  // opens once the chat list has painted: its code comes then, and the connection waits for it
  // (src/machines/app/wiring.ts).
  notifications: { load: 'wired', lifetime: 'session', systemId: true },
} as const satisfies ActorLines;
