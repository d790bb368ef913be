// The auth feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/auth/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const auth = () => import('./auth.effects');
const oidc = () => import('./oidc.effects');

export const authEffects = {
  registrationMode: later(auth, 'wireRegistrationMode'),
  passwordReset: later(auth, 'wirePasswordReset'),
  passkeySignIn: later(auth, 'wirePasskeySignIn'),
  oidcSignIn: later(oidc, 'wireOidcSignIn'),
} as const satisfies FeatureEffects;
