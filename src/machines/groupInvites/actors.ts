// The groupInvites feature's actors (a group's invite links and the page one opens) as the app registers them: each
// line says what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines;
// their effects are the feature's own (src/services/groupInvites/effects.ts); src/machines/README.md explains the
// fields.
import type { ActorLines } from '../shared/actor-line';

export const groupInvitesActors = {
  groupInvites: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  joinGroup: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
