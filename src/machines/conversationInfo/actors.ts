// The conversationInfo feature's actors («Информация») as the app registers them: each line says what the actor is and
// how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their effects are the feature's
// own (src/services/conversationInfo/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const conversationInfoActors = {
  conversationInfo: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  // «Медиа», «Файлы», «Ссылки», «Голосовые» (docs/behaviour.md §10.46): its code comes with the panel's tabs.
  chatMedia: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  historySetting: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
