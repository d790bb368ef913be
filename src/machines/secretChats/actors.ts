// The secretChats feature's actors (this browser as a device, each secret chat's MLS lifecycle, the dialogs; all loaded
// on demand) as the app registers them: each line says what the actor is and how long it lives.
// src/machines/app/registry.ts concatenates every feature's lines; their effects are the feature's own
// (src/services/secretChats/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const secretChatsActors = {
  // The background registration of a person with no secret chat, while the chats page is open (then only a light
  // listener for a new sign-in asking for approval).
  secretRegistration: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  // This browser as a device, while the chats page shows a secret chat, or once the registration hands over to it
  // (an approval is asked or needed).
  secretDevice: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
  },
  secretDialog: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  // A secret chat's call key, while such a call is open; the guests' door seals its media key to guests.
  secretCall: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
  },
  secretRecovery: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  // A new device of this person asking for the identity key (or this one waiting), beside the device actor.
  secretApproval: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  secretVerify: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  // One per secret chat, spawned and wired by the device actor.
  secretChat: {
    load: () => import('./secretChat/secretChat.machine').then((m) => m.secretChatMachine),
    lifetime: 'child',
    owner: 'secretDevice',
  },
} as const satisfies ActorLines;
