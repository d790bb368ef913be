// The directory feature's actors («Люди», «Открытые группы») as the app registers them: each line says what the actor
// is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their effects are the
// feature's own (src/services/directory/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const directoryActors = {
  // Alive while the contacts page shows the directory; its code comes with the page.
  directory: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
