// What the conversation actor emits only for the view (conversation.protocol.ts, ConversationEmitted), kept here
// for the message pane: the quote a jump targets (`n` changes on every jump, so a second jump to the same message
// scrolls and flashes again), a counter of own sends (each one takes the list to the bottom) and the image open in
// the lightbox, and the message a keyboard move went to. Listened to from the layout phase, so nothing the actor emits once the pane is on screen is missed.
import { useLayoutEffect, useState } from 'react';
import type { ConversationRef } from '../../machines/conversation/conversation/conversation.protocol';

export interface ConversationSignals {
  /** The message the last jump targeted; `n` counts the jumps. */
  highlight: { id: string; n: number } | null;
  /** Own sends so far (0: none yet). */
  bottomSignal: number;
  /** The image shown in the lightbox: a message and the index of the image in it. */
  viewer: { messageId: string; index: number } | null;
  /** The message a keyboard move went to; `n` counts the moves (a move that stays still focuses it again). */
  focusMove: { id: string; n: number } | null;
}

const NONE: ConversationSignals = { highlight: null, bottomSignal: 0, viewer: null, focusMove: null };

export function useConversationSignals(conversation: ConversationRef): ConversationSignals {
  // Kept with the actor they came from: another conversation's actor starts from nothing.
  const [state, setState] = useState({ of: conversation, signals: NONE });
  useLayoutEffect(() => {
    const update = (change: (s: ConversationSignals) => Partial<ConversationSignals>) =>
      setState((prev) => {
        const signals = prev.of === conversation ? prev.signals : NONE;
        return { of: conversation, signals: { ...signals, ...change(signals) } };
      });
    const subs = [
      conversation.on('conversation.scrollTo', (e) =>
        update((s) => ({ highlight: { id: e.messageId, n: (s.highlight?.n ?? 0) + 1 } })),
      ),
      conversation.on('conversation.toBottom', () => update((s) => ({ bottomSignal: s.bottomSignal + 1 }))),
      conversation.on('conversation.imageOpened', (e) =>
        update(() => ({ viewer: { messageId: e.messageId, index: e.index } })),
      ),
      conversation.on('conversation.imageClosed', () => update(() => ({ viewer: null }))),
      conversation.on('conversation.focusMoved', (e) =>
        update((s) => ({ focusMove: { id: e.messageId, n: (s.focusMove?.n ?? 0) + 1 } })),
      ),
    ];
    return () => {
      for (const sub of subs) sub.unsubscribe();
    };
  }, [conversation]);
  return state.of === conversation ? state.signals : NONE;
}
