import { useSelector } from '@xstate/react';
import { type TouchEvent, useCallback, useEffect, useRef, useState } from 'react';
import { LAYOUT } from '../../contract/limits';
import { useOwnedActor } from '../app/useOwnedActor';
import { useSystemActor } from '../app/RuntimeContext';
import {
  type ChatsLayoutEvent,
  type ChatsPanel,
  LAYOUT_TAGS,
} from '../../machines/chats/chatsLayout/chatsLayout.protocol';
import { useMediaQuery } from '../shared/useMediaQuery';

export const NARROW_QUERY = `(max-width: ${LAYOUT.narrowMaxPx}px)`;

/** A ref callback that reports whether the element is at least `minPx` wide (ResizeObserver; false without it). */
export function useWidthAtLeast(minPx: number): [(el: HTMLElement | null) => void, boolean] {
  const [wide, setWide] = useState(false);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback(
    (el: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!el || typeof ResizeObserver === 'undefined') return;
      observer.current = new ResizeObserver((entries) => {
        const width = entries[entries.length - 1]?.contentRect.width ?? el.getBoundingClientRect().width;
        setWide(width >= minPx);
      });
      observer.current.observe(el);
    },
    [minPx],
  );
  return [ref, wide];
}

/**
 * The chats page's layout: which panel a narrow screen shows (the chatsLayout actor, alive while the page is
 * shown: useOwnedActor), the narrow and wide flags, and the touch handlers that turn a finished horizontal drag into a swipe.
 * `selectionKey` (the selected conversation's id, when the caller has it) lets choosing another conversation
 * slide the conversation in even though something was selected before.
 */
export function useChatsLayout(props: { hasSelection: boolean; selectionKey?: string | null }) {
  const actor = useOwnedActor('chatsLayout', { hasSelection: props.hasSelection });
  // The address follows going back to the list (and a left swipe on the list brings the last conversation back).
  const navigation = useSystemActor('navigation');
  const panel = useSelector(actor, (s): ChatsPanel => (s?.hasTag(LAYOUT_TAGS.conversation) ? 'conversation' : 'list'));
  const send = useCallback((e: ChatsLayoutEvent) => actor.send(e), [actor]);
  const narrow = useMediaQuery(NARROW_QUERY);
  const [conversationRef, wide] = useWidthAtLeast(LAYOUT.wideMinPx);

  // Tell the actor when the selection changes (the key too: another conversation chosen while one was open).
  const { hasSelection, selectionKey } = props;
  const seen = useRef({ hasSelection, selectionKey });
  useEffect(() => {
    if (seen.current.hasSelection === hasSelection && seen.current.selectionKey === selectionKey) return;
    seen.current = { hasSelection, selectionKey };
    send({ type: 'layout.selectionChanged', hasSelection });
  }, [hasSelection, selectionKey, send]);

  // Touch events, not pointer events: once the browser starts scrolling something under the finger it cancels the
  // pointer stream (pointercancel), while touchend still arrives with where the finger left.
  const start = useRef<{ x: number; y: number } | null>(null);
  const onTouchStart = (e: TouchEvent) => {
    const t = e.touches[0];
    const inDialog = e.target instanceof Element && e.target.closest('[role="dialog"]'); // e.g. the lightbox
    start.current = narrow && e.touches.length === 1 && t && !inDialog ? { x: t.clientX, y: t.clientY } : null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const s = start.current;
    start.current = null;
    const t = e.changedTouches[0];
    if (!s || !t || e.touches.length > 0) return; // a second finger: a pinch, not a swipe
    const swipe = { dx: t.clientX - s.x, dy: t.clientY - s.y };
    send({ type: 'layout.swiped', ...swipe });
    if (Math.abs(swipe.dx) < LAYOUT.swipeMinPx || Math.abs(swipe.dx) <= Math.abs(swipe.dy)) return;
    if (swipe.dx > 0 && panel === 'conversation') navigation?.send({ type: 'nav.back' });
    if (swipe.dx < 0 && panel === 'list' && !hasSelection) navigation?.send({ type: 'nav.forward' });
  };
  const onTouchCancel = () => {
    start.current = null;
  };

  return {
    panel,
    narrow,
    wide,
    conversationRef,
    back: () => {
      send({ type: 'layout.back' });
      navigation?.send({ type: 'nav.back' });
    },
    openConversation: () => send({ type: 'layout.open' }),
    swipeHandlers: { onTouchStart, onTouchEnd, onTouchCancel },
  };
}
