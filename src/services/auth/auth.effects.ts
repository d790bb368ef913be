// The auth feature's effects: the registration screen asks who may register, the password-reset page reads and uses
// its link (no bearer token needed for either).
import { fromPromise } from 'xstate';
import type { Services } from '../app/services';
import {
  type PasswordResetEffects,
  passwordResetMachine,
} from '../../machines/auth/passwordReset/passwordReset.machine';
import {
  type RegistrationModeEffects,
  registrationModeMachine,
} from '../../machines/auth/registrationMode/registrationMode.machine';
import {
  type PasskeySignInEffects,
  passkeySignInMachine,
} from '../../machines/auth/passkeySignIn/passkeySignIn.machine';

export const wireRegistrationMode = (s: Services) =>
  registrationModeMachine.provide({
    actors: { loadMode: fromPromise(() => s.api.call('registrationInfo')) } satisfies RegistrationModeEffects,
  });

export const wirePasswordReset = (s: Services) =>
  passwordResetMachine.provide({
    actors: {
      loadAccount: fromPromise(({ input }: { input: { token: string } }) =>
        s.api.call('passwordResetInfo', { params: { token: input.token } }),
      ),
      resetPassword: fromPromise<unknown, { token: string; password: string }>(({ input }) =>
        s.api.call('resetPassword', { body: { token: input.token, password: input.password } }),
      ),
    } satisfies PasswordResetEffects,
  });

/** «Войти с ключом доступа»: the sign-in calls carry no bearer token (the session's own API). */
export const wirePasskeySignIn = (s: Services) =>
  passkeySignInMachine.provide({
    actors: { signIn: fromPromise(() => s.passkeys.signIn()) } satisfies PasskeySignInEffects,
  });
