// «Сменить пароль» in Settings (registry line 'passwordChange', alive while the form is shown). Views import this
// module, never passwordChange.machine.ts.
import { LIMITS } from '../../../contract/limits';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const PASSWORD_TOO_SHORT = `Пароль — не короче ${LIMITS.passwordMin} символов`;
export const PASSWORDS_DIFFER = 'Пароли не совпадают';
export const PASSWORD_FAILED = 'Не удалось сменить пароль';
export const PASSWORD_CHANGED = 'Пароль изменён. Другие устройства вышли из аккаунта.';

/**
 * What is wrong with a new password typed twice, or null: the registration rule (docs/behaviour.md §5; the inputs
 * cap the length) and the two alike. Shared with the password-reset page.
 */
export function newPasswordProblem(password: string, repeat: string): string | null {
  if (password.length < LIMITS.passwordMin) return PASSWORD_TOO_SHORT;
  if (password !== repeat) return PASSWORDS_DIFFER;
  return null;
}

export interface PasswordFields {
  currentPassword: string;
  newPassword: string;
  /** The new password typed again. */
  repeat: string;
}

export interface PasswordContext {
  error: string | null;
}

export type PasswordEvent = { type: 'password.submit'; fields: PasswordFields } | { type: 'password.edit' };

export type PasswordRef = MachineRef<PasswordContext, PasswordEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/account/account.effects.ts). */
export interface PasswordChangeEffects {
  /** POST /api/auth/password. */
  changePassword: PromiseActorLogic<unknown, { currentPassword: string; newPassword: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Сменить пароль» (spawned while the settings section is shown). */
    passwordChange: PasswordRef;
  }
}
