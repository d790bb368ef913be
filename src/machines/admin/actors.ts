// The admin feature's actors («Администрирование»: one actor per tab, with the page's code) as the app registers them:
// each line says what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's
// lines; their effects are the feature's own (src/services/admin/effects.ts); src/machines/README.md explains the
// fields.
import type { ActorLines } from '../shared/actor-line';

export const adminActors = {
  adminUsers: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  adminRegistration: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  adminReports: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  adminStats: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
