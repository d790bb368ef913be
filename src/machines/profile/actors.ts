// The profile feature's actors (the own record and the avatar editors) as the app registers them: each line says what
// the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their effects
// are the feature's own (src/services/profile/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';
import { profileMachine } from './profile/profile.machine';

export const profileActors = {
  // The own record: another tab's profile:update reaches everything that shows it.
  profile: { machine: profileMachine, lifetime: 'session', systemId: true },
  avatar: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'chatsFooter',
  },
  // The same editor for a group's picture, owned by «Информация» (after `avatar`, so the diagram keeps that name).
  groupAvatar: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  // The «Статус» dialog (a status of one's own), opened from Settings; its code loads with the dialog.
  customStatus: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
