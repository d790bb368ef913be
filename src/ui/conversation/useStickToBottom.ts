// Keeping the message history at its newest message (docs/behaviour.md §2 Chats page, §9 Constants and limits):
// it opens at the bottom; a new last row is followed while the reader is within AUTOSCROLL_PX of the bottom; the
// '↓' button shows from JUMP_BUTTON_PX above it; an own send goes to the bottom from anywhere.
// The reader is "pinned" to the bottom: set by every move there, dropped by any scroll that leaves it. Rows
// measured after the move change the height below (estimates become sizes), so each resize moves again while
// pinned. (virtua's scrollToIndex would re-scroll on every measurement for a while, pulling back a reader who just
// scrolled up.)
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export const AUTOSCROLL_PX = 80;
export const JUMP_BUTTON_PX = 40;

export interface StickToBottomOptions {
  /** The scroll area; it is the same element for the life of the list. */
  scroller: RefObject<HTMLElement | null>;
  /** The key of the last row: a new one is a new message at the end. */
  lastKey: string | undefined;
  /** Changes when the user sent something (0: nothing sent yet): to the bottom, whatever the distance. */
  bottomSignal: number;
  /** Told when a send moves the view for the reader (counts as the reader's own move). */
  onReaderMove(): void;
}

export interface StickToBottom {
  /** Within JUMP_BUTTON_PX of the bottom as of the last scroll: the '↓' button hides. */
  atBottom: boolean;
  /** Scrolls to the bottom and pins the view there. */
  toBottom(): void;
  /** Unpins: neither a resize nor a new row pulls the view back until a scroll says where it is. */
  leave(): void;
  /** For the virtualizer's onResize: a row or the view changed size. */
  onResize(): void;
}

export function useStickToBottom({
  scroller,
  lastKey,
  bottomSignal,
  onReaderMove,
}: StickToBottomOptions): StickToBottom {
  /** Pixels below the view, as of the last scroll (a new row or a grown one does not count until then). */
  const distance = useRef(0);
  const pinned = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  const toBottom = useCallback(() => {
    pinned.current = true;
    distance.current = 0;
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [scroller]);
  const leave = useCallback(() => {
    pinned.current = false;
    distance.current = Number.POSITIVE_INFINITY;
  }, []);
  // A row or the view changed size: a reader pinned to the bottom stays there (rows measured, the composer growing).
  const onResize = useCallback(() => {
    if (pinned.current) toBottom();
  }, [toBottom]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      distance.current = el.scrollHeight - el.scrollTop - el.clientHeight;
      if (distance.current > 1) pinned.current = false;
      setAtBottom(distance.current <= JUMP_BUTTON_PX);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [scroller]);

  // Opens at the newest message.
  useLayoutEffect(() => {
    toBottom();
  }, [toBottom]);

  // A new row at the end: followed when the reader was within AUTOSCROLL_PX of the bottom.
  const shownLastKey = useRef(lastKey);
  useLayoutEffect(() => {
    if (lastKey !== shownLastKey.current && distance.current <= AUTOSCROLL_PX) toBottom();
    shownLastKey.current = lastKey;
  }, [lastKey, toBottom]);

  // After an own send: to the bottom a frame later (the sent row is rendered by then).
  const readerMove = useRef(onReaderMove);
  readerMove.current = onReaderMove;
  useEffect(() => {
    if (!bottomSignal) return;
    readerMove.current();
    const frame = requestAnimationFrame(toBottom);
    return () => cancelAnimationFrame(frame);
  }, [bottomSignal, toBottom]);

  return { atBottom, toBottom, leave, onResize };
}
