// The scheduled feature's actors («Запланированные», «Отправить позже», «Напомнить») as the app registers them;
// src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const scheduledActors = {
  // A chat's waiting items and the time menus: alive while the view shows them, its code loaded with it.
  scheduler: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
