// «Регистрация» in «Администрирование» (registry line 'adminRegistration', alive while the tab is shown): who may register
// («Открытая», «По приглашениям», «Закрыта»), whether members may invite and how long messages are kept
// (docs/administration.md, Registration). The invite codes are the inviteCodes feature's. Views import this module,
// never adminRegistration.machine.ts.
import type { ServerSettings } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type { ServerSettings };

export const REGISTRATION_FAILED = 'Не удалось загрузить настройки регистрации';
export const SETTINGS_SAVE_FAILED = 'Не удалось сохранить настройки';

export interface AdminRegistrationContext {
  settings: ServerSettings | null;
  /** The change being saved. */
  change: Partial<ServerSettings> | null;
  error: string | null;
}

export type AdminRegistrationEvent =
  | { type: 'registration.save'; change: Partial<ServerSettings> }
  | { type: 'registration.reload' };

export const REGISTRATION_TAGS = { busy: 'busy', saved: 'saved' } as const;

export type AdminRegistrationRef = MachineRef<AdminRegistrationContext, AdminRegistrationEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/admin/admin.effects.ts). */
export interface AdminRegistrationEffects {
  /** GET /api/admin/settings. */
  load: PromiseActorLogic<ServerSettings, unknown>;
  /** PATCH /api/admin/settings: the settings as saved. */
  saveSettings: PromiseActorLogic<ServerSettings, Partial<ServerSettings>>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Регистрация» (spawned while the tab is shown). */
    adminRegistration: AdminRegistrationRef;
  }
}
