// «Регистрация» in «Администрирование» (systemId 'adminRegistration', alive while the tab is shown): who may register
// («Открытая», «По приглашениям», «Закрыта»), whether members may invite, how long messages are kept, and the invite
// codes (docs/administration.md, Registration). Views import this module, never adminRegistration.machine.ts.
import type { RegistrationInvite, ServerSettings } from '../../../../contract/administration';
import type { MachineRef } from '../../../../core/machines/machine-ref';

export type { RegistrationInvite, ServerSettings };

export const REGISTRATION_FAILED = 'Не удалось загрузить настройки регистрации';
export const SETTINGS_SAVE_FAILED = 'Не удалось сохранить настройки';
export const INVITE_CODE_FAILED = 'Не удалось изменить код приглашения. Попробуйте ещё раз.';

/** A new invite code's limits: hours until it expires, uses, a note (each optional). */
export interface NewInvite {
  expiresInHours: number | null;
  maxUses: number | null;
  note: string;
}

/** What the tab loads at once: the settings and every invite code. */
export interface RegistrationState {
  settings: ServerSettings;
  invites: RegistrationInvite[];
}

export interface AdminRegistrationContext {
  settings: ServerSettings | null;
  invites: RegistrationInvite[];
  /** The change being saved. */
  change: Partial<ServerSettings> | null;
  /** The invite being created. */
  draft: NewInvite | null;
  /** The code being revoked or copied. */
  code: string | null;
  error: string | null;
}

export type AdminRegistrationEvent =
  | { type: 'registration.save'; change: Partial<ServerSettings> }
  | { type: 'registration.createInvite'; invite: NewInvite }
  | { type: 'registration.revoke'; code: string }
  | { type: 'registration.copy'; code: string }
  | { type: 'registration.reload' };

export const REGISTRATION_TAGS = { busy: 'busy', saved: 'saved', copied: 'copied' } as const;

/** The registration screen's address with a code filled in: /auth/register?invite=<code> on this site. */
export const registrationInviteLink = (origin: string, code: string) =>
  `${origin}/auth/register?invite=${encodeURIComponent(code)}`;

export type AdminRegistrationRef = MachineRef<AdminRegistrationContext, AdminRegistrationEvent>;

declare module '../../../../core/machines/system' {
  interface SystemActors {
    /** «Регистрация» (spawned while the tab is shown). */
    adminRegistration: AdminRegistrationRef;
  }
}
