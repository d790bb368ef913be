// The historyImport feature's actors («Импорт истории», docs/behaviour.md §10.39) as the app registers them: each line
// says what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their
// effects are the feature's own (src/services/historyImport/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const historyImportActors = {
  historyImport: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
