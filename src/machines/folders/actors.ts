// The folders feature's actors (chat folders, «Папки») as the app registers them: each line says what the actor is
// and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their effects are the
// feature's own (src/services/folders/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const foldersActors = {
  folders: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
