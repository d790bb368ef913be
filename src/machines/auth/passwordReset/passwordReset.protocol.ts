// The page a password-reset link opens (/reset/<token>; registry line 'passwordReset', alive while the page is shown):
// whose account the link is for, a new password typed twice, «Сохранить пароль». Views import this module, never
// passwordReset.machine.ts.
import type { z } from 'zod';
import type { PasswordResetInfoResponse } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type ResetAccount = z.output<typeof PasswordResetInfoResponse>;

export const RESET_LOAD_FAILED = 'Не удалось открыть ссылку для сброса пароля';
export const RESET_FAILED = 'Не удалось сохранить пароль. Попробуйте ещё раз.';
export const RESET_DONE = 'Пароль изменён. Войдите с новым паролем.';

export interface PasswordResetInput {
  token: string;
}

export interface ResetFields {
  password: string;
  /** The new password typed again. */
  repeat: string;
}

export interface PasswordResetContext {
  token: string;
  /** Whose account the link is for, once the server said. */
  account: ResetAccount | null;
  /** What went wrong: the form's problem, the server's message, or a fallback. */
  error: string | null;
}

export type PasswordResetEvent = { type: 'reset.submit'; fields: ResetFields } | { type: 'reset.retry' };

/** busy: a request runs; form: the form is shown; invalid: the link cannot be used (for good); done: saved. */
export const RESET_TAGS = { busy: 'busy', form: 'form', invalid: 'invalid', done: 'done' } as const;

export type PasswordResetRef = MachineRef<PasswordResetContext, PasswordResetEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/auth/auth.effects.ts). */
export interface PasswordResetEffects {
  /** GET /api/auth/reset/:token. */
  loadAccount: PromiseActorLogic<ResetAccount, { token: string }>;
  /** POST /api/auth/reset. */
  resetPassword: PromiseActorLogic<unknown, { token: string; password: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The password-reset page (spawned while /reset/<token> is shown). */
    passwordReset: PasswordResetRef;
  }
}
