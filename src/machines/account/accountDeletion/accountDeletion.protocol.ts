// «Удалить аккаунт» in Settings (registry line 'accountDeletion', alive while the section is shown). Views import this
// module, never accountDeletion.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

/** Typed on screen to confirm; the server needs only the password. */
export const DELETE_CONFIRMATION = 'УДАЛИТЬ';
export const CONFIRMATION_NEEDED = `Введите ${DELETE_CONFIRMATION}, чтобы подтвердить`;
export const DELETE_FAILED = 'Не удалось удалить аккаунт';

export interface AccountDeletionContext {
  error: string | null;
}

export type AccountDeletionEvent = { type: 'account.delete'; password: string; confirmation: string };

export type AccountDeletionRef = MachineRef<AccountDeletionContext, AccountDeletionEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/account/account.effects.ts). */
export interface AccountDeletionEffects {
  /** POST /api/auth/account/delete. */
  deleteAccount: PromiseActorLogic<unknown, { password: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Удалить аккаунт» (spawned while the settings section is shown). */
    accountDeletion: AccountDeletionRef;
  }
}
