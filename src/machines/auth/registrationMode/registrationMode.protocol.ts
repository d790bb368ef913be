// Who may register on this server (registry line 'registrationMode', alive while the registration screen is shown):
// GET /api/registration, whether the next account is the server's first (its administrator), and how people sign in. Views import this module, never registrationMode.machine.ts.
import type { RegistrationInfo, RegistrationMode, SignInOptions } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type { RegistrationMode, SignInOptions };

/** Until the server says otherwise: passwords, no provider. */
export const PASSWORDS_ONLY: SignInOptions = { provider: null, passwords: true };

export const REGISTRATION_CLOSED = 'Регистрация на этом сервере закрыта. Обратитесь к администратору';

export interface RegistrationModeContext {
  /** Null until the server answered; 'open' when it could not be asked (the server checks again on submit). */
  mode: RegistrationMode | null;
  /** Nobody has registered yet: the first account becomes the administrator (false when unknown). */
  firstAccount: boolean;
  /** What the sign-in page offers: the organisation's provider, and whether passwords are taken. */
  signIn: SignInOptions;
}

export type RegistrationModeEvent = { type: 'registrationMode.reload' };

export type RegistrationModeRef = MachineRef<RegistrationModeContext, RegistrationModeEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/auth/auth.effects.ts). */
export interface RegistrationModeEffects {
  /** GET /api/registration. */
  loadMode: PromiseActorLogic<RegistrationInfo, unknown>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The registration screen's mode (spawned while it is shown). */
    registrationMode: RegistrationModeRef;
  }
}
