// Deleting and hiding messages with a moment to change one's mind (systemId 'removal', alive for the session so a
// removal still goes out after its conversation is closed). «Удалить» on own messages asks «Удалить сообщение?» with
// «Удалить у всех» and «Удалить у меня»; «Скрыть у себя» on someone else's message hides at once. Either way the
// messages leave the view, an «Отменить» toast stays for UNDO.windowMs, and only then does the request go out (a
// new removal meanwhile sends the waiting one at once). Views import this module, never removal.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const REMOVAL_FAILED = 'Не удалось удалить сообщение';

/** 'everyone': deleted for every member (own messages only); 'me': hidden for the user alone, on every device. */
export type RemovalMode = 'everyone' | 'me';

export interface RemovalTarget {
  conversationId: string;
  messageIds: string[];
}

/** What is removed, how, and in which conversation. */
export interface Removal extends RemovalTarget {
  mode: RemovalMode;
}

export interface RemovalContext {
  /** Asked about («Удалить сообщение?»): own messages only. */
  asking: RemovalTarget | null;
  /** Out of view, waiting for «Отменить» or being sent. */
  held: Removal | null;
  /** The last removal sent: still kept out of view until the server's events take the messages away. */
  gone: Removal | null;
  /** What came while another was being sent: asked (or hidden) once that one is done. */
  next: { kind: 'ask'; target: RemovalTarget } | { kind: 'hide'; target: RemovalTarget } | null;
  error: string | null;
}

export type RemovalEvent =
  /** «Удалить» on own messages: asks how. */
  | ({ type: 'removal.ask' } & RemovalTarget)
  /** «Скрыть у себя»: someone else's messages, hidden for the user without asking (undo still offered). */
  | ({ type: 'removal.hide' } & RemovalTarget)
  | { type: 'removal.choose'; mode: RemovalMode }
  | { type: 'removal.cancel' }
  | { type: 'removal.undo' }
  | { type: 'removal.dismissError' };

/** Tags: 'confirming' (the question is shown), 'undoable' (the toast with «Отменить»), 'sending'. */
export type RemovalRef = MachineRef<RemovalContext, RemovalEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/messageActions/messageActions.effects.ts).
 */
export interface RemovalEffects {
  /** POST /api/messages/delete for each message ('everyone') or POST /api/messages/hide ('me'). */
  commit: PromiseActorLogic<unknown, Removal>;
}

declare module '../../shared/system' {
  interface SystemActors {
    /** Deleting and hiding messages, with undo (for the session). */
    removal: RemovalRef;
  }
}
