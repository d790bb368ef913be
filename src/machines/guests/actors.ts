// The guests feature's actors (guest links to calls) as the app registers them: each line says what the actor is and
// how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their effects are the feature's
// own (src/services/guests/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const guestsActors = {
  /** The guest link's page (/g/<code>): its code loads with the page, never in the first bundle. */
  guestPage: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  /** The door of an open call for its members: links, knocks, decisions (a secret chat's: sealed call keys). */
  guestDoor: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  /** «Ссылки на звонки» of a conversation's «Информация» or a named room of /calls: links, «Кто впускает гостей». */
  guestLinks: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
