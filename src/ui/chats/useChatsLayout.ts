import { useMachine } from '@xstate/react';
import { type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { LAYOUT } from '../../contract/limits';
import { type ChatsPanel, chatsLayoutMachine } from '../../machines/chatsLayout/chatsLayout.machine';

export const NARROW_QUERY = `(max-width: ${LAYOUT.narrowMaxPx}px)`;

/** Whether a media query matches, following changes (false where matchMedia does not exist). */
export function useMediaQuery(query: string): boolean {
  const get = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  const [matches, setMatches] = useState(get);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}

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
 * The chats page's layout: which panel a narrow screen shows (the chatsLayout actor, run here because it is
 * view-local), the narrow and wide flags, and the touch handlers that turn a finished horizontal drag into a swipe.
 * `selectionKey` (the selected conversation's id, when the caller has it) lets choosing another conversation
 * slide the conversation in even though something was selected before.
 */
export function useChatsLayout(props: { hasSelection: boolean; selectionKey?: string | null }) {
  const [snapshot, send] = useMachine(chatsLayoutMachine, { input: { hasSelection: props.hasSelection } });
  const panel = (snapshot.value === 'starting' ? 'list' : snapshot.value) as ChatsPanel;
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

  const start = useRef<{ id: number; x: number; y: number } | null>(null);
  const onPointerDown = (e: PointerEvent) => {
    // Touch and pen only: a mouse drag selects text instead.
    start.current = narrow && e.pointerType !== 'mouse' ? { id: e.pointerId, x: e.clientX, y: e.clientY } : null;
  };
  const onPointerUp = (e: PointerEvent) => {
    const s = start.current;
    start.current = null;
    if (!s || s.id !== e.pointerId) return;
    send({ type: 'layout.swiped', dx: e.clientX - s.x, dy: e.clientY - s.y });
  };
  const onPointerCancel = () => {
    start.current = null; // the browser took the gesture (a vertical scroll)
  };

  return {
    panel,
    narrow,
    wide,
    conversationRef,
    back: () => send({ type: 'layout.back' }),
    openConversation: () => send({ type: 'layout.open' }),
    swipeHandlers: { onPointerDown, onPointerUp, onPointerCancel },
  };
}
