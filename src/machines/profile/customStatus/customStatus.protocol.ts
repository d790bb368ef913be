// The «Статус» dialog (registry line 'customStatus', owned by the settings page's view while it is open): one's own
// status — an emoji, a text of at most 80 characters and «Сбросить через» — saved with «Сохранить», cleared with
// «Сбросить». Views import this module, never customStatus.machine.ts.
import type { PromiseActorLogic } from 'xstate';
import type { ClearAfter } from '../../../contract/custom-status';
import type { CustomStatus, User } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';

export const STATUS_SAVE_FAILED = 'Не удалось сохранить статус. Попробуйте ещё раз.';
export const STATUS_CLEAR_FAILED = 'Не удалось сбросить статус. Попробуйте ещё раз.';
export const STATUS_EMPTY = 'Выберите эмодзи или напишите текст статуса';

/** The emoji offered in the dialog (one of them, or none). */
export const STATUS_EMOJI = ['🙂', '🌴', '🤒', '🏠', '🚗', '🍕', '📚', '🎧', '💻', '🎉', '⏳', '🏃'] as const;

export interface CustomStatusInput {
  /** The status set now, if any: the dialog starts from it. */
  current: CustomStatus | null;
}

export interface CustomStatusContext {
  current: CustomStatus | null;
  emoji: string;
  text: string;
  clearAfter: ClearAfter;
  error: string | null;
}

export type CustomStatusEvent =
  | { type: 'customStatus.emojiChosen'; emoji: string }
  | { type: 'customStatus.textChanged'; text: string }
  | { type: 'customStatus.clearAfterChosen'; clearAfter: ClearAfter }
  | { type: 'customStatus.save' }
  | { type: 'customStatus.clear' };

/** Tags views ask: `busy` while a request runs, `done` once saved or cleared (the dialog closes). */
export const CUSTOM_STATUS_TAGS = { busy: 'busy', done: 'done' } as const;

export type CustomStatusRef = MachineRef<CustomStatusContext, CustomStatusEvent>;

/** What «Сохранить» sends. */
export interface StatusChoice {
  emoji: string;
  text: string;
  clearAfter: ClearAfter;
}

/** The machine's port (src/services/profile/custom-status.effects.ts). */
export interface CustomStatusEffects {
  /** POST /api/status/custom (with the browser's time zone, for «Сегодня»). */
  saveStatus: PromiseActorLogic<User, StatusChoice>;
  /** DELETE /api/status/custom. */
  clearStatus: PromiseActorLogic<User, void>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The «Статус» dialog (spawned while it is open in Settings). */
    customStatus: CustomStatusRef;
  }
}
