// «Переслать» (systemId 'forwardPicker', alive while its dialog is open): the chats to forward to, chosen in a
// searchable list (up to LIMITS.forwardTargetsMax), then one request; forwarding to one chat opens it, as Telegram
// does. Views import this module, never forwardPicker.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';

export const FORWARD_FAILED = 'Не удалось переслать. Попробуйте ещё раз.';

export interface ForwardPickerInput {
  messageIds: string[];
}

export interface ForwardPickerContext {
  messageIds: string[];
  query: string;
  /** The chosen chats, in the order they were ticked. */
  chosen: string[];
  error: string | null;
}

export type ForwardPickerEvent =
  | { type: 'forward.query'; query: string }
  | { type: 'forward.toggle'; conversationId: string }
  | { type: 'forward.send' };

/** Tags: 'busy' (sending), 'done' (sent: the dialog closes). */
export type ForwardPickerRef = MachineRef<ForwardPickerContext, ForwardPickerEvent>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** The forward dialog's chats and request (spawned while it is open). */
    forwardPicker: ForwardPickerRef;
  }
}
