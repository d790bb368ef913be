// The messageActions feature's actors (removal with undo, selection, forwarding, message info, edit history) as the
// app registers them: each line says what the actor is and how long it lives. src/machines/app/registry.ts
// concatenates every feature's lines; their effects are the feature's own (src/services/messageActions/effects.ts);
// src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const messageActionsActors = {
  // Deleting and hiding with «Отменить»: for the session, so a removal goes out after its chat is closed. The chat
  // list does not need it: its code comes once the list has painted, and what is asked of it before then is kept.
  removal: { load: 'wired', lifetime: 'session', systemId: true },
  selection: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  forwardPicker: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  messageInfo: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  editHistory: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
