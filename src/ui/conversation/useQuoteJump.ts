// A jump to a quoted message: each new `highlight` scrolls that message to the middle of the view, once per jump,
// with the rows of that moment. Rows of older pages just prepended for the jump are measured over a frame or two
// (the virtualizer's shift keeps the old view in place meanwhile), so the scroll waits two frames, and is tried
// once more 300 ms later if the target is still off screen and the reader has not moved meanwhile.
import { type RefObject, useEffect, useRef } from 'react';
import type { VirtualizerHandle } from 'virtua';
import type { ReaderMoves } from './useReaderMoves';
import type { MessageRow } from './view-model';

const RETRY_MS = 300;

export interface QuoteJumpOptions {
  scroller: RefObject<HTMLElement | null>;
  list: RefObject<VirtualizerHandle | null>;
  rows: MessageRow[];
  /** The message a jump targets; `n` changes on every jump. */
  highlight: { id: string; n: number } | null;
  moves: ReaderMoves;
  /** Called before the scroll: away from the bottom, no resize or new row may pull the view back. */
  leaveBottom(): void;
}

export function useQuoteJump({ scroller, list, rows, highlight, moves, leaveBottom }: QuoteJumpOptions): void {
  // The latest rows and callback for the delayed scrolls, so only a new jump starts them.
  const latest = useRef({ rows, leaveBottom });
  latest.current = { rows, leaveBottom };

  useEffect(() => {
    if (!highlight) return;
    const go = () => {
      const index = latest.current.rows.findIndex((r) => r.id === highlight.id);
      if (index < 0) return;
      latest.current.leaveBottom();
      list.current?.scrollToIndex(index, { align: 'center' });
    };
    const movesAtJump = moves.count();
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(go);
    });
    const again = setTimeout(() => {
      if (moves.count() !== movesAtJump) return; // the reader went elsewhere meanwhile
      const el = scroller.current?.querySelector(`[data-message-id="${CSS.escape(highlight.id)}"]`);
      const box = el?.getBoundingClientRect();
      const view = scroller.current?.getBoundingClientRect();
      if (!box || !view || box.bottom < view.top || box.top > view.bottom) go();
    }, RETRY_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(again);
    };
  }, [highlight, list, scroller, moves]);
}
