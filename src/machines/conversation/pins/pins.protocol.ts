// The pin bar's protocol (the conversation actor's child 'pins'): the pinned messages of the open conversation,
// the one the bar shows, «Закрепить» / «Открепить» sent one after another by its child queue 'pinning'. The
// conversation forwards what concerns the pins (the server's conversation:pins, deletions, the view's requests).
// Peers and views import this module, never pins.machine.ts.
import type { ResponseOf } from '../../../contract/api';
import type { Message } from '../../../contract/entities';
import type { RequestQueueRef, RequestQueueReport } from '../../realtime/requestQueue/requestQueue.protocol';
import type { MachineRef } from '../../shared/machine-ref';
import type { AnyStateMachine, PromiseActorLogic } from 'xstate';

export interface PinsInput {
  conversationId: string;
}

/** «Закрепить» / «Открепить» waiting for the server (the child queue 'pinning'). */
export interface PinChange {
  messageId: string;
  on: boolean;
}

export interface PinsContext {
  conversationId: string;
  /** The pinned messages, newest pin first (the bar under the header). */
  pins: Message[];
  /** The pin the bar shows and a click jumps to (then the next older one, round). */
  pinCursor: number;
}

export type PinsEvent =
  /** The server's list (conversation:pins). */
  | { type: 'pins.changed'; pins: Message[] }
  /** A message deleted for everyone: it leaves the bar. */
  | { type: 'pins.removed'; messageId: string }
  /** «Закрепить» (`on`) or «Открепить»; `shown`: the message is in the loaded history (else only a pin may be). */
  | { type: 'pins.pin'; messageId: string; on: boolean; shown: boolean }
  /** The bar was clicked: jump to the pin it shows, and show the next older one. */
  | { type: 'pins.jump' }
  | RequestQueueReport<'pinning', PinChange, ResponseOf<'pinMessage'>>;

/** What it tells its parent: go to this pinned message (as a jump to a quote does). */
export type PinsParentEvent = { type: 'pins.jumpTo'; messageId: string };

export type PinsRef = MachineRef<PinsContext, PinsEvent, never, { pinning?: RequestQueueRef<PinChange> }>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/conversation/conversation.effects.ts).
 */
export interface PinsEffects {
  /** GET /api/conversations/:id/pins. */
  fetchPins: PromiseActorLogic<ResponseOf<'pins'>, { conversationId: string }>;
  /** Its queue for «Закрепить» / «Открепить», provided with the effect of its own port (RequestQueueEffects). */
  pinning: AnyStateMachine;
}
