// The read-receipts actor's protocol (the conversation actor's child 'readReceipts'): its input and the events it
// accepts (what the view sees, window focus). Peers and views import this module, never the machine file.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export interface ReadReceiptsInput {
  conversationId: string;
}

export interface ReadReceiptsContext {
  conversationId: string;
  focused: boolean;
  /** What the view last reported as visible (ids of unread messages from others). */
  visible: string[];
  /** Waiting for the next post. */
  queue: string[];
  /** In the post now being made. */
  inFlight: string[];
  /** Posted successfully; never posted again. */
  done: string[];
}

export type ReadReceiptsEvent =
  | { type: 'receipts.visible'; messageIds: string[] }
  | { type: 'receipts.focus'; focused: boolean };

export type ReadReceiptsRef = MachineRef<ReadReceiptsContext, ReadReceiptsEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/conversation/conversation.effects.ts).
 */
export interface ReadReceiptsEffects {
  postReceipts: PromiseActorLogic<unknown, { messageIds: string[] }>;
}
