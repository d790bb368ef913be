// «Безопасность» → «Ключи доступа» in Settings (docs/behaviour.md §10.7b), alive while the section is shown.
// Views import this module, never passkeys.machine.ts.
import type { Passkey } from '../../../contract/passkeys';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type { Passkey };

export const PASSKEYS_LOAD_FAILED = 'Не удалось загрузить ключи доступа';
/** Adding failed without the server's word: the browser's prompt was closed or timed out, or no connection. */
export const PASSKEY_ADD_FAILED = 'Ключ доступа не добавлен. Попробуйте ещё раз';
export const PASSKEY_CHANGE_FAILED = 'Не удалось изменить ключ доступа, попробуйте ещё раз';

/** A passkey's row: its name and dates with «Переименовать» and «Удалить», or one of their forms open. */
export type PasskeyRowMode = 'view' | 'rename' | 'remove';

export interface PasskeysContext {
  passkeys: Passkey[];
  error: string | null;
  /** What was just done, said once («Ключ доступа добавлен»). */
  notice: string | null;
  /** The rows whose rename or remove form is open, by passkey id (any number at once; absent: 'view'). */
  rowModes: Record<string, Exclude<PasskeyRowMode, 'view'>>;
}

export type PasskeysEvent =
  /** «Добавить ключ доступа»: its name and the account's password. */
  | { type: 'passkeys.add'; name: string; password: string }
  | { type: 'passkeys.rename'; id: string; name: string }
  /** «Удалить» with the password. */
  | { type: 'passkeys.remove'; id: string; password: string }
  /** A row's «Переименовать» / «Удалить»: its form opens (the other rows keep theirs). */
  | { type: 'passkeys.openRename'; id: string }
  | { type: 'passkeys.openRemove'; id: string }
  /** The form's «Отмена»: the row shows its buttons again. */
  | { type: 'passkeys.closeForm'; id: string }
  | { type: 'passkeys.retry' };

export type PasskeysRef = MachineRef<PasskeysContext, PasskeysEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/account/account.effects.ts). */
export interface PasskeysEffects {
  /** GET /api/auth/passkeys. */
  loadPasskeys: PromiseActorLogic<Passkey[], unknown>;
  /** The options (with the password), the browser's prompt, then POST /api/auth/passkeys/register. */
  addPasskey: PromiseActorLogic<Passkey, { name: string; password: string }>;
  /** PATCH /api/auth/passkeys/:id. */
  renamePasskey: PromiseActorLogic<unknown, { id: string; name: string }>;
  /** POST /api/auth/passkeys/:id/remove. */
  removePasskey: PromiseActorLogic<unknown, { id: string; password: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Безопасность» → «Ключи доступа» (spawned while the settings section is shown). */
    passkeys: PasskeysRef;
  }
}
