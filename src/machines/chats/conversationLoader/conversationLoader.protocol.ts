// The conversation loader's protocol (the chats actor's child 'loader'): the events it accepts (the chats actor's
// opening and closing, the view's `loader.prepare`), its tags and its child, the open conversation.
// Peers and views import this module, never conversationLoader.machine.ts.

import type { EventObject } from 'xstate';
import type { ConversationInput, ConversationRef } from '../../conversation/conversation/conversation.protocol';
import type { MachineRef, SnapshotOf } from '../../shared/machine-ref';
import type { LoadOwnedEffect } from '../../shared/effects.protocol';

export interface ConversationLoaderContext {
  /** The conversation being opened or open: its actor's input. */
  opening: ConversationInput | null;
}

export type ConversationLoaderEvent =
  /**
   * A conversation is about to be opened (the list was touched, the service worker has the code): fetch the
   * conversation's machines now; after a failed fetch, try again.
   */
  | { type: 'loader.prepare' }
  /** Open this conversation (its actor starts once the machines are here). */
  | { type: 'loader.open'; conversation: ConversationInput }
  /**
   * The open conversation chosen again, perhaps at a message (a search result): its actor jumps there; after a
   * failed fetch, the machines are fetched again.
   */
  | { type: 'loader.again'; messageId?: string }
  | { type: 'loader.close' };

/** Tags the chats page reads. */
export const LOADER_TAGS = {
  /** A conversation is selected, but its machines could not be fetched (offline before they were ever here). */
  conversationFailed: 'conversationFailed',
} as const;

export type ConversationLoaderRef = MachineRef<
  ConversationLoaderContext,
  ConversationLoaderEvent,
  EventObject,
  { conversation?: ConversationRef }
>;

/** The selected conversation's actor, once its machines are here (the loader's child). */
export const loadedConversationOf = (s: SnapshotOf<ConversationLoaderRef> | undefined) => s?.children.conversation;

/** The machine's port: the effect the composition root provides (src/machines/app/wiring.ts). */
export interface ConversationLoaderEffects {
  /** The conversation's machines, wired (the registry line 'conversation'). */
  loadOwned: LoadOwnedEffect<'conversation'>;
}
