// «Переслать» (registry line 'forwardPicker', alive while its dialog is open): the chats and the people with no chat yet
// to forward to, chosen in a searchable list (up to LIMITS.forwardTargetsMax in all); the direct chats the chosen
// people lack are opened first (the server allows it as it does «Написать»), then one request copies the messages;
// forwarding to one chat opens it, as Telegram does. Views import this module, never forwardPicker.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const FORWARD_FAILED = 'Не удалось переслать. Попробуйте ещё раз.';

export interface ForwardPickerInput {
  messageIds: string[];
}

export interface ForwardPickerContext {
  messageIds: string[];
  query: string;
  /** The chosen chats, in the order they were ticked. */
  chosen: string[];
  /** The chosen people with no direct chat yet (user ids), in the order they were ticked. */
  people: string[];
  error: string | null;
}

export type ForwardPickerEvent =
  | { type: 'forward.query'; query: string }
  | { type: 'forward.toggle'; conversationId: string }
  | { type: 'forward.togglePerson'; userId: string }
  | { type: 'forward.send' };

/** Tags: 'busy' (sending), 'done' (sent: the dialog closes). */
export type ForwardPickerRef = MachineRef<ForwardPickerContext, ForwardPickerEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/messageActions/messageActions-
 * dialog.effects.ts).
 */
export interface ForwardPickerEffects {
  /** POST /api/conversations/with for each person: their direct chats' ids, in order. */
  openDirect: PromiseActorLogic<string[], { userIds: string[] }>;
  /** POST /api/messages/forward. */
  forward: PromiseActorLogic<unknown, { messageIds: string[]; conversationIds: string[] }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The forward dialog's chats and request (spawned while it is open). */
    forwardPicker: ForwardPickerRef;
  }
}
