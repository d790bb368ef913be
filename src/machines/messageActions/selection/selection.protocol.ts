// Selecting messages and copying (registry line 'selection', alive while a conversation pane is shown): «Выбрать» starts a
// selection with checkboxes and a count; «Переслать», «Копировать» and «Удалить» act on it; Escape leaves it.
// «Копировать текст» of one message copies through the same actor («Скопировано» for a moment).
import type { MachineRef } from '../../shared/machine-ref';
import type { CopyTextEffect } from '../../shared/effects.protocol';

export const COPY_FAILED = 'Не удалось скопировать: браузер не дал доступ к буферу обмена';

export interface SelectionContext {
  /** The selected messages, in the order they were picked. */
  ids: string[];
  error: string | null;
}

export type SelectionEvent =
  | { type: 'selection.start'; messageId: string }
  | { type: 'selection.toggle'; messageId: string }
  /** Escape, «Отмена», or the selection was acted on. */
  | { type: 'selection.clear' }
  /** Copies this text (leaves selection mode when in it). */
  | { type: 'selection.copy'; text: string };

/** Tags: 'selecting', 'copied' (the «Скопировано» note). */
export type SelectionRef = MachineRef<SelectionContext, SelectionEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/messageActions/messageActions-
 * dialog.effects.ts).
 */
export interface SelectionEffects {
  /** Writes the text to the clipboard. */
  copyText: CopyTextEffect;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** Selected messages and the clipboard (spawned while a conversation pane is shown). */
    selection: SelectionRef;
  }
}
