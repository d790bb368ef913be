// The contacts feature's actors (friends, requests, the EBLID search and the group dialog) as the app registers them:
// each line says what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's
// lines; their effects are the feature's own (src/services/contacts/effects.ts); src/machines/README.md explains the
// fields.
import type { ActorLines } from '../shared/actor-line';
import { contactsMachine } from './contacts/contacts.machine';

export const contactsActors = {
  // The footer's badge and requests heard live, on any page.
  contacts: { machine: contactsMachine, lifetime: 'session', systemId: true },
  // Owned by the chats footer while its dialog is open; the code comes when a dialog is first opened.
  contactCode: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'chatsFooter',
  },
  groupDialog: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'chatsFooter',
  },
  // A group member's card (a sender's name in the timeline) and a row's «Написать» in «Информация».
  memberCard: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  memberWrite: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
