// The admin feature's actors («Администрирование»: one actor per tab, with the page's code) as the app registers them: each line says what the actor is and how
// long it lives. src/machines/app/registry.ts concatenates every feature's lines and provides their effects
// (src/machines/app/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const adminActors = {
  adminUsers: {
    load: () => import('./adminUsers/adminUsers.machine').then((m) => m.adminUsersMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  adminRegistration: {
    load: () => import('./adminRegistration/adminRegistration.machine').then((m) => m.adminRegistrationMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  adminReports: {
    load: () => import('./adminReports/adminReports.machine').then((m) => m.adminReportsMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  adminStats: {
    load: () => import('./adminStats/adminStats.machine').then((m) => m.adminStatsMachine),
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
