// The edit actor's protocol (the conversation actor's child 'messageEdit'): editing one own message at a time
// in the composer. Peers and views import this module, never messageEdit.machine.ts.
import type { Message } from '../../../contract/entities';
import type { MessageEntity } from '../../../contract/message-entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import type { PromiseActorLogic } from 'xstate';

export interface MessageEditContext {
  /** The message being edited; null when nothing is. */
  messageId: string | null;
  /** Its text when editing started (the banner shows it). */
  original: string;
  /** The text in the composer. */
  text: string;
  /** Why the last save failed (the server's Russian message); the text stays. */
  error: string | null;
}

export type MessageEditEvent =
  | { type: 'edit.start'; messageId: string; content: string }
  | { type: 'edit.input'; text: string }
  | { type: 'edit.save' }
  | { type: 'edit.cancel' }
  /** Internal (raised by `edit.save` when the text changed): the request to send, the edited message known. */
  | { type: 'edit.submit'; messageId: string; content: string; entities?: MessageEntity[] };

/** What it tells its parent (the conversation actor): the server's message with the new text. */
export type MessageEditParentEvent = { type: 'edit.saved'; message: Message };

export type MessageEditRef = MachineRef<MessageEditContext, MessageEditEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/conversation/conversation.effects.ts).
 */
export interface MessageEditEffects {
  saveEdit: PromiseActorLogic<ResponseOf<'editMessage'>, BodyOf<'editMessage'>>;
}
