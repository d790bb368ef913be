// Read receipts (docs/behaviour.md §4 Read marking): which unread messages from others are at least
// READ_VISIBLE_RATIO inside the scroll area right now. One IntersectionObserver, rooted at the scroll area, is
// owned by an effect; rows hand their elements over through `watch(id)`, a ref callback that stays the same for a
// message as long as the list is mounted (so rows keep their cached elements). Each change of the visible set is
// reported with the whole set.
import { type RefObject, useCallback, useEffect, useRef } from 'react';

export const READ_VISIBLE_RATIO = 0.25;

export type Watch = (messageId: string) => (el: HTMLElement | null) => void;

export function useReadVisibility(
  scroller: RefObject<HTMLElement | null>,
  onVisibleUnread: (messageIds: string[]) => void,
): Watch {
  const report = useRef(onVisibleUnread);
  report.current = onVisibleUnread;
  const visible = useRef(new Set<string>());
  /** The elements handed over so far, by message id: observed whenever an observer exists. */
  const watched = useRef(new Map<string, HTMLElement>());
  const observer = useRef<IntersectionObserver | null>(null);

  useEffect(() => {
    const root = scroller.current;
    if (!root || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        let changed = false;
        for (const e of entries) {
          const id = (e.target as HTMLElement).dataset.messageId;
          if (!id) continue;
          const seen = e.isIntersecting && e.intersectionRatio >= READ_VISIBLE_RATIO;
          if (seen === visible.current.has(id)) continue;
          changed = true;
          if (seen) visible.current.add(id);
          else visible.current.delete(id);
        }
        if (changed) report.current([...visible.current]);
      },
      { root, threshold: [0, READ_VISIBLE_RATIO, 1] },
    );
    observer.current = io;
    // Rows are committed (and hand their elements over) before this effect runs.
    for (const el of watched.current.values()) io.observe(el);
    return () => {
      io.disconnect();
      observer.current = null;
    };
  }, [scroller]);

  const callbacks = useRef(new Map<string, (el: HTMLElement | null) => void>());
  return useCallback((id: string) => {
    let fn = callbacks.current.get(id);
    if (!fn) {
      fn = (el: HTMLElement | null) => {
        const before = watched.current.get(id);
        if (before && before !== el) {
          observer.current?.unobserve(before);
          watched.current.delete(id);
          if (visible.current.delete(id)) report.current([...visible.current]);
        }
        if (el) {
          watched.current.set(id, el);
          observer.current?.observe(el);
        }
      };
      callbacks.current.set(id, fn);
    }
    return fn;
  }, []);
}
