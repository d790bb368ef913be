// «Пользователи» in «Администрирование» (registry line 'adminUsers', alive while the tab is shown): the accounts with
// search and paging, and what an administrator does to one (docs/administration.md, Accounts). Views import this
// module, never adminUsers.machine.ts.
import type { AdminUser } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';
import type { ResponseOf } from '../../../contract/api';
import type { PromiseActorLogic } from 'xstate';

export type { AdminUser };

export const USERS_FAILED = 'Не удалось загрузить пользователей';
export const USER_ACTION_FAILED = 'Не удалось выполнить действие. Попробуйте ещё раз.';

/**
 * «Отключить», «Включить», «Завершить сеансы», «Сделать администратором», «Снять права администратора», «Сбросить
 * двухэтапную проверку».
 */
export type UserAction = 'deactivate' | 'reactivate' | 'endSessions' | 'promote' | 'demote' | 'resetSecondFactor';
/** The actions asked about first: they lock someone out, change who runs the server or weaken a sign-in. */
export const CONFIRMED_ACTIONS: readonly UserAction[] = ['deactivate', 'promote', 'demote', 'resetSecondFactor'];

/** A password-reset link just made: its path on this site and when it stops working. */
export interface ResetLink {
  userId: string;
  path: string;
  expiresAt: string;
}

export interface AdminUsersContext {
  /** The search as sent (name, username or EBLID); '' lists everyone, newest first. */
  query: string;
  users: AdminUser[];
  /** The next page's cursor, null on the last page. */
  nextCursor: string | null;
  /** The action asked about or running. */
  pending: { userId: string; action: UserAction | 'resetLink' } | null;
  resetLink: ResetLink | null;
  error: string | null;
}

export type AdminUsersEvent =
  | { type: 'users.search'; query: string }
  | { type: 'users.more' }
  | { type: 'users.reload' }
  | { type: 'users.act'; userId: string; action: UserAction }
  | { type: 'users.confirm' }
  | { type: 'users.cancel' }
  | { type: 'users.resetLink'; userId: string }
  | { type: 'users.copyLink' }
  | { type: 'users.closeLink' };

export const ADMIN_TAGS = { busy: 'busy', confirming: 'confirming', copied: 'copied' } as const;

export type AdminUsersRef = MachineRef<AdminUsersContext, AdminUsersEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/admin/admin.effects.ts). */
export interface AdminUsersEffects {
  /** GET /api/admin/users?q=&cursor=. */
  loadUsers: PromiseActorLogic<ResponseOf<'adminUsers'>, { q: string; cursor: string | null }>;
  /** POST /api/admin/users/deactivate | reactivate | end-sessions | role: the account as it is now. */
  act: PromiseActorLogic<AdminUser, { userId: string; action: UserAction }>;
  /** POST /api/admin/users/reset-link. */
  makeResetLink: PromiseActorLogic<ResponseOf<'adminResetLink'>, { userId: string }>;
  /** The link (this site's origin + path) to the clipboard. */
  copyLink: PromiseActorLogic<unknown, { path: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Пользователи» (spawned while the tab is shown). */
    adminUsers: AdminUsersRef;
  }
}
