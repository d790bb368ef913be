// The account feature's effects by registry line (its lines: src/machines/account/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const account = () => import('./account.effects');
const signInMethods = () => import('./signInMethods.effects');

export const accountEffects = {
  devices: later(account, 'wireDevices'),
  passwordChange: later(account, 'wirePassword'),
  accountDeletion: later(account, 'wireAccountDeletion'),
  dataExport: later(account, 'wireDataExport'),
  twoFactor: later(account, 'wireTwoFactor'),
  passkeys: later(account, 'wirePasskeys'),
  signInMethods: later(signInMethods, 'wireSignInMethods'),
} as const satisfies FeatureEffects;
