// The search feature's actors (message search: the chats list's and the open conversation's) as the app registers them:
// each line says what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's
// lines; their effects are the feature's own (src/services/search/effects.ts); src/machines/README.md explains the
// fields.
import type { ActorLines } from '../shared/actor-line';
import { searchMachine } from './search/search.machine';

export const searchActors = {
  // The chats list's search: its query survives a visit to another page, like the list.
  search: { machine: searchMachine, lifetime: 'session', systemId: true },
  conversationSearch: { machine: searchMachine, lifetime: 'owned', owner: 'view' },
  // «Перейти к дате» of the conversation's search bar: its code comes with the bar.
  dateJump: { load: 'wired', lifetime: 'owned', owner: 'view' },
} as const satisfies ActorLines;
