// The auth feature's effects by registry line (its lines: src/machines/auth/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const auth = () => import('./auth.effects');
const oidc = () => import('./oidc.effects');

export const authEffects = {
  registrationMode: later(auth, 'wireRegistrationMode'),
  passwordReset: later(auth, 'wirePasswordReset'),
  passkeySignIn: later(auth, 'wirePasskeySignIn'),
  oidcSignIn: later(oidc, 'wireOidcSignIn'),
} as const satisfies FeatureEffects;
