// The auth feature's actors (who may register, and the password-reset page) as the app registers them: each line says what the actor is and how
// long it lives. src/machines/app/registry.ts concatenates every feature's lines and provides their effects
// (src/machines/app/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const authActors = {
  registrationMode: {
    load: () => import('./registrationMode/registrationMode.machine').then((m) => m.registrationModeMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  passwordReset: {
    load: () => import('./passwordReset/passwordReset.machine').then((m) => m.passwordResetMachine),
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
