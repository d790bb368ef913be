// «История изменений» of a message (registry line 'editHistory', alive while its dialog is open): the current text and
// the earlier ones, newest first, as the server kept them. Views import this module, never editHistory.machine.ts.
import type { ResponseOf } from '../../../contract/api';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const HISTORY_FAILED = 'Не удалось загрузить историю изменений';

export interface EditHistoryInput {
  messageId: string;
}

export type MessageVersions = ResponseOf<'messageEdits'>['versions'];

export interface EditHistoryContext {
  messageId: string;
  versions: MessageVersions | null;
  error: string | null;
}

/** «Повторить» after a failure; `editHistory.edited` when the message changed again while the dialog is open. */
export type EditHistoryEvent = { type: 'editHistory.retry' } | { type: 'editHistory.edited' };

/** Tags: 'loading'. */
export type EditHistoryRef = MachineRef<EditHistoryContext, EditHistoryEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/messageActions/messageActions-
 * dialog.effects.ts).
 */
export interface EditHistoryEffects {
  /** GET /api/messages/:id/edits. */
  load: PromiseActorLogic<ResponseOf<'messageEdits'>, { messageId: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «История изменений» of a message (spawned while its dialog is open). */
    editHistory: EditHistoryRef;
  }
}
