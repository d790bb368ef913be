// The auth feature's actors (who may register, and the password-reset page) as the app registers them: each line says
// what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their
// effects are the feature's own (src/services/auth/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const authActors = {
  registrationMode: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  passwordReset: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  oidcSignIn: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  passkeySignIn: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
