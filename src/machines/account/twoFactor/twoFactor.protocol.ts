// «Безопасность» → «Двухэтапная проверка» in Settings (docs/behaviour.md §10.7a), alive while the section is shown.
// Views import this module, never twoFactor.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const TWO_FACTOR_FAILED = 'Не удалось выполнить действие, попробуйте ещё раз';
export const TWO_FACTOR_LOAD_FAILED = 'Не удалось загрузить настройки безопасности';

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
  /** The server requires it of this account. */
  required: boolean;
}

export interface TwoFactorContext {
  status: TwoFactorStatus | null;
  /** While setting up: the secret as text and its otpauth:// address (the QR code). */
  secret: string | null;
  uri: string | null;
  /** Recovery codes just made, shown once. */
  recoveryCodes: string[] | null;
  error: string | null;
}

export type TwoFactorEvent =
  /** «Включить двухэтапную проверку», or «Сбросить» (with the password) while it is on. */
  | { type: 'twoFactor.begin'; password?: string }
  /** The first code from the app confirms the set-up. */
  | { type: 'twoFactor.confirm'; code: string }
  /** «Отмена» of the set-up. */
  | { type: 'twoFactor.cancel' }
  /** «Готово» after the recovery codes were shown. */
  | { type: 'twoFactor.done' }
  | { type: 'twoFactor.disable'; password: string }
  /** «Новые коды восстановления». */
  | { type: 'twoFactor.regenerate'; password: string }
  | { type: 'twoFactor.retry' };

export type TwoFactorRef = MachineRef<TwoFactorContext, TwoFactorEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/account/account.effects.ts). */
export interface TwoFactorEffects {
  /** GET /api/auth/two-factor. */
  loadStatus: PromiseActorLogic<TwoFactorStatus, unknown>;
  /** POST /api/auth/two-factor/begin. */
  begin: PromiseActorLogic<{ secret: string; uri: string }, { password?: string }>;
  /** POST /api/auth/two-factor/confirm. */
  confirm: PromiseActorLogic<{ recoveryCodes: string[] }, { code: string }>;
  /** POST /api/auth/two-factor/disable. */
  disable: PromiseActorLogic<unknown, { password: string }>;
  /** POST /api/auth/two-factor/recovery-codes. */
  regenerate: PromiseActorLogic<{ recoveryCodes: string[] }, { password: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Безопасность» (spawned while the settings section is shown). */
    twoFactor: TwoFactorRef;
  }
}
