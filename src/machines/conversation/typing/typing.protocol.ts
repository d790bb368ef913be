// The typing actor's protocol (systemId 'typing', spawned by the conversation actor): its input and the events it
// accepts (the composer's keystrokes, server events). Peers import this module, never typing.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';

export interface TypingInput {
  conversationId: string;
  userId: string;
}

export interface TypingContext {
  conversationId: string;
  me: string;
  /** Other users typing now, in the order they started. */
  typers: string[];
  /** How many of the three dots are lit (1 → 2 → 3 → 1 …). */
  dots: number;
}

export type TypingEvent =
  | { type: 'typing.keystroke' }
  | { type: 'typing.stop' }
  | { type: 'typing.remote'; conversationId: string; userId: string; typing: boolean }
  | { type: 'typing.remoteSent'; userId: string };

export type TypingRef = MachineRef<TypingContext, TypingEvent>;

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    /** The open conversation's typing actor (spawned by the conversation actor while one is open). */
    typing: TypingRef;
  }
}
