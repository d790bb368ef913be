// Counts the reader's own moves in the message history: wheel, touch, keys and pointer presses on the scroll area,
// plus the moves the list makes on the reader's behalf (the '↓' button, a send), reported through `moved()`.
// A delayed scroll (a quote jump's second try) compares counts to know it would pull the reader back.
import { type RefObject, useEffect, useRef, useState } from 'react';

export interface ReaderMoves {
  /** Counts one move made for the reader (the '↓' button, a send). */
  moved(): void;
  /** Moves so far; only differences between two readings mean anything. */
  count(): number;
}

const MOVE_EVENTS = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;

export function useReaderMoves(scroller: RefObject<HTMLElement | null>): ReaderMoves {
  const n = useRef(0);
  const [moves] = useState<ReaderMoves>(() => ({
    moved: () => {
      n.current += 1;
    },
    count: () => n.current,
  }));
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    for (const type of MOVE_EVENTS) el.addEventListener(type, moves.moved, { passive: true });
    return () => {
      for (const type of MOVE_EVENTS) el.removeEventListener(type, moves.moved);
    };
  }, [scroller, moves]);
  return moves;
}
