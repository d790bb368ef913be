// The notifications feature's actors (sounds, system notifications and Web Push) as the app registers them: each line
// says what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their
// effects are the feature's own (src/services/notifications/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';
import { notificationsMachine } from './notifications/notifications.machine';

export const notificationsActors = {
  notifications: { machine: notificationsMachine, lifetime: 'session', systemId: true },
} as const satisfies ActorLines;
