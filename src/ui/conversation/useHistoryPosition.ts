// Where the reader is in the history, for what the list draws over it: the day of the topmost row on screen (the
// sticky day line, as Telegram keeps it) and how many unread messages from others are below the view (the count
// on the ↓ button). Read from the rendered rows' data attributes on scroll, at most once a frame. While a day's own
// line passes under the sticky one, only the row's line shows (as in Telegram), never the two on top of each other.
// Opening a
// conversation with an unread divider scrolls to it instead of the bottom.
import { type RefObject, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { VirtualizerHandle } from 'virtua';
import type { MessageRow } from './view-model';

/** The band at the top of the history the sticky day line covers (its 8 px offset, its height and a little air). */
const STICKY_BAND_PX = 40;

export interface HistoryPosition {
  /** The day of the topmost row on screen; null before the first scroll and while a day line is in the band. */
  topDay: string | null;
  /** Unread messages from others below the lowest row shown so far. */
  unreadBelow: number;
}

export function useHistoryPosition(options: {
  scroller: RefObject<HTMLElement | null>;
  list: RefObject<VirtualizerHandle | null>;
  rows: MessageRow[];
  /** Away from the bottom before scrolling to the divider, so no resize pulls the view back. */
  leaveBottom(): void;
}): HistoryPosition {
  const { scroller, list, rows } = options;
  const [topDay, setTopDay] = useState<string | null>(null);
  const [lowestSeen, setLowestSeen] = useState<string | null>(null);
  const latestRows = useRef(rows);
  latestRows.current = rows;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const view = el.getBoundingClientRect();
      let top: string | null = null;
      let lowest: string | null = null;
      let lineInBand = false;
      for (const row of el.querySelectorAll<HTMLElement>('.msg-row')) {
        const box = row.getBoundingClientRect();
        if (box.bottom <= view.top || box.top >= view.bottom) continue;
        top ??= row.dataset.dayOf ?? null;
        lowest = row.querySelector<HTMLElement>('[data-message-id]')?.dataset.messageId ?? lowest;
        const line = row.querySelector('.msg-day')?.getBoundingClientRect();
        if (line && line.bottom > view.top && line.top < view.top + STICKY_BAND_PX) lineInBand = true;
      }
      setTopDay(lineInBand ? null : top);
      if (lowest) {
        const index = (id: string | null) => latestRows.current.findIndex((r) => r.id === id);
        setLowestSeen((seen) => (seen === null || index(lowest) > index(seen) ? lowest : seen));
      }
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    onScroll();
    return () => {
      el.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [scroller]);

  // Opens at «Непрочитанные сообщения» (once per list: the list is made again for each conversation). Rows are
  // measured over the first frames (estimates become sizes), so the scroll is checked again twice while the
  // divider is still off screen. Those checks outlive a change of rows: rows are made again within the first frames
  // as often as not (read marks, a preview), and cancelling them there left the list at the bottom for good.
  const opened = useRef(false);
  const pending = useRef<{ frame: number; timers: ReturnType<typeof setTimeout>[] } | null>(null);
  const leave = useRef(options.leaveBottom);
  leave.current = options.leaveBottom;
  useEffect(() => {
    if (opened.current) return;
    if (!rows.some((r) => r.unreadDivider)) return;
    opened.current = true;
    const go = () => {
      const el = scroller.current;
      const index = latestRows.current.findIndex((r) => r.unreadDivider);
      // (Element.scrollTo is missing only in DOM emulations such as jsdom.)
      if (!el || index < 0 || typeof el.scrollTo !== 'function') return;
      const divider = el.querySelector('[data-testid="unread-divider"]');
      const box = divider?.getBoundingClientRect();
      const view = el.getBoundingClientRect();
      if (box && box.top >= view.top && box.top < view.bottom) return;
      leave.current();
      list.current?.scrollToIndex(index, { align: 'start' });
    };
    const handles = { frame: 0, timers: [setTimeout(go, 300), setTimeout(go, 900)] };
    handles.frame = requestAnimationFrame(() => {
      handles.frame = requestAnimationFrame(go);
    });
    pending.current = handles;
  }, [rows, list, scroller]);
  useEffect(
    () => () => {
      const handles = pending.current;
      if (!handles) return;
      // Not opened after all (React's strict mode mounts twice): a mount again tries again.
      opened.current = false;
      pending.current = null;
      cancelAnimationFrame(handles.frame);
      for (const t of handles.timers) clearTimeout(t);
    },
    [],
  );

  const unreadBelow = useMemo(() => {
    const divider = rows.findIndex((r) => r.unreadDivider);
    const seen = lowestSeen === null ? -1 : rows.findIndex((r) => r.id === lowestSeen);
    let n = 0;
    for (let i = seen + 1; i < rows.length; i++) {
      const r = rows[i];
      if (!r.own && ((divider >= 0 && i >= divider) || r.unread)) n += 1;
    }
    return n;
  }, [rows, lowestSeen]);

  return { topDay, unreadBelow };
}
