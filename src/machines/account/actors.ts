// The account feature's actors (sign-ins, password, deletion and the data export) as the app registers them: each line
// says what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their
// effects are the feature's own (src/services/account/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const accountActors = {
  devices: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
  },
  passwordChange: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  accountDeletion: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  dataExport: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  signInMethods: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  twoFactor: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  passkeys: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
