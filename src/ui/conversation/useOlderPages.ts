// Older pages of the message history: asked for on scrolls that come within OLDER_PX of the top, only once the
// opening scroll to the bottom is done (a frame after the first render), and then prepended without the view
// jumping: `shift` is true on the render that prepends, told by firstItemIndex going down, so the virtualizer
// keeps the rows on screen in place.
import { type RefObject, useLayoutEffect, useRef } from 'react';

/** Older pages are asked for once the top of the history is this close (rows above the view are measured then). */
export const OLDER_PX = 800;

export interface OlderPagesOptions {
  scroller: RefObject<HTMLElement | null>;
  /** The index of the first row in the whole history; it goes down when an older page is prepended. */
  firstItemIndex: number;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder(): void;
}

/** Returns the virtualizer's `shift` for this render. */
export function useOlderPages({
  scroller,
  firstItemIndex,
  hasMore,
  loadingOlder,
  onLoadOlder,
}: OlderPagesOptions): boolean {
  // The latest state for the scroll listener, so it is not re-attached on every render of the page.
  const latest = useRef({ hasMore, loadingOlder, onLoadOlder });
  latest.current = { hasMore, loadingOlder, onLoadOlder };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let opened = false;
    const nearTop = () => {
      const p = latest.current;
      if (opened && el.scrollTop < OLDER_PX && p.hasMore && !p.loadingOlder) p.onLoadOlder();
    };
    el.addEventListener('scroll', nearTop, { passive: true });
    const frame = requestAnimationFrame(() => {
      opened = true;
      nearTop(); // a history shorter than the view gets no scroll event
    });
    return () => {
      cancelAnimationFrame(frame);
      el.removeEventListener('scroll', nearTop);
    };
  }, [scroller]);

  const shownFirst = useRef(firstItemIndex);
  useLayoutEffect(() => {
    shownFirst.current = firstItemIndex;
  }, [firstItemIndex]);
  return firstItemIndex < shownFirst.current;
}
