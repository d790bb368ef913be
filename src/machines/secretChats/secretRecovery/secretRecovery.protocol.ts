// The dialog «Ключ восстановления» (registry line 'secretRecovery', owned by its view while open; docs/secret-chats.md
// "The recovery key"): setting up a recovery key (the phrase shown once, «Я сохранил ключ»), entering it on a new
// device to read the history, and deleting it. Views import this module, never secretRecovery.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const RECOVERY_TITLE = 'Ключ восстановления';
export const WRONG_RECOVERY_KEY = 'Неверный ключ восстановления';
export const ENTER_RECOVERY_KEY = 'Ввести ключ восстановления';
export const SAVED_RECOVERY_KEY = 'Я сохранил ключ';
export const DELETE_RECOVERY_KEY = 'Удалить ключ восстановления';
export const NO_RECOVERY_KEY =
  'У вас нет ключа восстановления. Его можно создать в настройках на устройстве, где история есть: тогда на новых устройствах она станет доступна по ключу.';
export const RECOVERY_EXPLANATION =
  'Ключ восстановления открывает историю секретных чатов на новом устройстве. Переписка хранится на сервере зашифрованной этим ключом; сервер ключа не знает. Потеряете ключ — историю не восстановить.';
export const RECOVERY_FAILED = 'Не удалось выполнить операцию с ключом восстановления';
export const EMPTY_PHRASE = 'Введите ключ восстановления';

export interface SecretRecoveryInput {
  userId: string;
  /** Opened from settings (set up, delete) or from an unreadable message (enter the key). */
  mode: 'setup' | 'restore';
}

/** What is known of the person's recovery key. */
export interface RecoveryStatus {
  hasKey: boolean;
  createdAt: string | null;
  /** This device holds the key and backs up what it reads and sends. */
  here: boolean;
}

/** A new key: its phrase (shown once) and what the server keeps. */
export interface RecoveryMade {
  phrase: string;
  salt: string;
  iterations: number;
  check: string;
}

export interface SecretRecoveryContext extends SecretRecoveryInput {
  status: RecoveryStatus | null;
  made: RecoveryMade | null;
  error: string | null;
  /** Messages the restore added to this device. */
  restored: number | null;
}

export type SecretRecoveryEvent =
  | { type: 'secretRecovery.create' }
  /** «Я сохранил ключ». */
  | { type: 'secretRecovery.saved' }
  | { type: 'secretRecovery.enter' }
  | { type: 'secretRecovery.submit'; phrase: string }
  | { type: 'secretRecovery.remove' }
  | { type: 'secretRecovery.back' }
  | { type: 'secretRecovery.retry' };

export type SecretRecoveryRef = MachineRef<SecretRecoveryContext, SecretRecoveryEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/secretChats/secretChats-
 * recovery.effects.ts).
 */
export interface SecretRecoveryEffects {
  status: PromiseActorLogic<RecoveryStatus, { userId: string }>;
  generate: PromiseActorLogic<RecoveryMade, { userId: string }>;
  confirm: PromiseActorLogic<void, { userId: string; made: RecoveryMade }>;
  restore: PromiseActorLogic<{ restored: number }, { userId: string; phrase: string }>;
  remove: PromiseActorLogic<void, { userId: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    secretRecovery: SecretRecoveryRef;
  }
}
