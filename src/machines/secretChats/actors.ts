// The secretChats feature's actors (this browser as a device, each secret chat's MLS lifecycle, the dialogs; all loaded on demand) as the app registers them: each line says what the actor is and how
// long it lives. src/machines/app/registry.ts concatenates every feature's lines and provides their effects
// (src/machines/app/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const secretChatsActors = {
  // This browser as a device, while the chats page shows a secret chat or the creation dialog is open.
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
  // A secret chat's call key, while such a call is open.
  secretCall: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  secretRecovery: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  // A new device of this person asking for the identity key, while the device holder is shown.
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
