// The account feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/account/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const account = () => import('./account.effects');

export const accountEffects = {
  devices: later(account, 'wireDevices'),
  passwordChange: later(account, 'wirePassword'),
  accountDeletion: later(account, 'wireAccountDeletion'),
  dataExport: later(account, 'wireDataExport'),
  twoFactor: later(account, 'wireTwoFactor'),
  passkeys: later(account, 'wirePasskeys'),
  signInMethods: later(account, 'wireSignInMethods'),
} as const satisfies FeatureEffects;
