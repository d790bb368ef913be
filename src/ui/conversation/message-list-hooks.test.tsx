// The message list's behaviours, each hook on its own against a scroll area with set sizes (jsdom has no layout;
// e2e/chats-scroll.spec.ts and e2e/chats.spec.ts check the same rules in Chromium): sticking to the bottom
// (src/ui/conversation/useStickToBottom.ts), older pages (useOlderPages.ts), quote jumps (useQuoteJump.ts), opening
// at «Непрочитанные сообщения» (useHistoryPosition.ts) and reporting
// visible unread messages (useReadVisibility.ts; jsdom has no IntersectionObserver, so a recording one stands in
// and its entries are delivered by hand).
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VirtualizerHandle } from 'virtua';
import { useHistoryPosition } from './useHistoryPosition';
import { OLDER_PX, useOlderPages } from './useOlderPages';
import { useQuoteJump } from './useQuoteJump';
import { useReaderMoves } from './useReaderMoves';
import { READ_VISIBLE_RATIO, useReadVisibility } from './useReadVisibility';
import { useStickToBottom } from './useStickToBottom';
import type { MessageRow } from './view-model';

/** A scroll area `view` px tall over `content` px of history; scrollTop is clamped as a browser does. */
function scrollArea(content: number, view = 500) {
  const el = document.createElement('div');
  let height = content;
  let top = 0;
  Object.defineProperty(el, 'scrollHeight', { get: () => height });
  Object.defineProperty(el, 'clientHeight', { get: () => view });
  Object.defineProperty(el, 'scrollTop', {
    get: () => top,
    set: (v: number) => {
      top = Math.max(0, Math.min(v, height - view));
    },
  });
  return {
    ref: { current: el },
    /** Pixels of history below the view. */
    below: () => height - top - view,
    /** The history grew (a row measured or added); the view does not move by itself. */
    grow: (px: number) => {
      height += px;
    },
    /** The reader scrolls so that `px` stay below the view. */
    leaveBelow: (px: number) =>
      act(() => {
        top = height - view - px;
        el.dispatchEvent(new Event('scroll'));
      }),
  };
}

describe('useStickToBottom', () => {
  const setup = (area: ReturnType<typeof scrollArea>) => {
    const onReaderMove = vi.fn();
    const hook = renderHook(
      (p: { lastKey: string; bottomSignal: number }) => useStickToBottom({ scroller: area.ref, ...p, onReaderMove }),
      { initialProps: { lastKey: 'm1', bottomSignal: 0 } },
    );
    return { ...hook, onReaderMove };
  };

  it('opens at the bottom and stays there while rows grow, until a scroll leaves it', () => {
    const area = scrollArea(3000);
    const { result } = setup(area);
    expect(area.below()).toBe(0);
    expect(result.current.atBottom).toBe(true);

    area.grow(200); // rows measured below the view after the opening scroll
    act(() => result.current.onResize());
    expect(area.below()).toBe(0);

    area.leaveBelow(150);
    area.grow(100);
    act(() => result.current.onResize());
    expect(area.below()).toBe(250); // not pulled back
  });

  it("'↓' shows from 40 px above the bottom; a new message is followed within 80 px, not from 300 px", () => {
    const area = scrollArea(3000);
    const { result, rerender } = setup(area);
    area.leaveBelow(30);
    expect(result.current.atBottom).toBe(true);
    area.leaveBelow(60);
    expect(result.current.atBottom).toBe(false);

    area.grow(50);
    rerender({ lastKey: 'm2', bottomSignal: 0 });
    expect(area.below()).toBe(0);

    area.leaveBelow(300);
    area.grow(50);
    rerender({ lastKey: 'm3', bottomSignal: 0 });
    expect(area.below()).toBe(350);
    rerender({ lastKey: 'm3', bottomSignal: 0 }); // a re-render without a new row changes nothing
    expect(area.below()).toBe(350);
  });

  it('an own send goes to the bottom from anywhere and counts as a move of the reader', async () => {
    const area = scrollArea(5000);
    const { rerender, onReaderMove } = setup(area);
    area.leaveBelow(2000);
    expect(onReaderMove).not.toHaveBeenCalled();
    area.grow(40);
    rerender({ lastKey: 'own', bottomSignal: 1 });
    expect(onReaderMove).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(area.below()).toBe(0));
  });

  it('leave() unpins: neither a resize nor a new row pulls the view back until the next scroll', () => {
    const area = scrollArea(3000);
    const { result, rerender } = setup(area);
    act(() => result.current.leave());
    area.grow(30);
    act(() => result.current.onResize());
    rerender({ lastKey: 'm2', bottomSignal: 0 });
    expect(area.below()).toBe(30);
    act(() => result.current.toBottom());
    expect(area.below()).toBe(0);
  });
});

/** Two animation frames: the opening frame of a list, or the wait of a quote jump. */
const frames = () => act(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

describe('useOlderPages', () => {
  const setup = (area: ReturnType<typeof scrollArea>, over: { hasMore?: boolean; loadingOlder?: boolean } = {}) => {
    const onLoadOlder = vi.fn();
    const hook = renderHook(
      (p: { firstItemIndex: number; hasMore: boolean; loadingOlder: boolean }) =>
        useOlderPages({ scroller: area.ref, ...p, onLoadOlder }),
      { initialProps: { firstItemIndex: 1000, hasMore: true, loadingOlder: false, ...over } },
    );
    return { ...hook, onLoadOlder };
  };

  it('asks for an older page on a scroll near the top, not before the opening frame, not while one loads or none is left', async () => {
    const area = scrollArea(5000);
    const { rerender, onLoadOlder } = setup(area);
    area.leaveBelow(5000 - 500 - (OLDER_PX - 100)); // near the top before the list has opened: ignored
    expect(onLoadOlder).not.toHaveBeenCalled();
    area.leaveBelow(0); // the opening scroll to the bottom
    await frames();
    expect(onLoadOlder).not.toHaveBeenCalled();
    area.leaveBelow(5000 - 500 - (OLDER_PX + 100));
    expect(onLoadOlder).not.toHaveBeenCalled(); // further than OLDER_PX from the top
    area.leaveBelow(5000 - 500 - (OLDER_PX - 100));
    expect(onLoadOlder).toHaveBeenCalledTimes(1);

    rerender({ firstItemIndex: 1000, hasMore: true, loadingOlder: true });
    area.leaveBelow(5000 - 500 - 10);
    expect(onLoadOlder).toHaveBeenCalledTimes(1);
    rerender({ firstItemIndex: 1000, hasMore: false, loadingOlder: false });
    area.leaveBelow(5000 - 500);
    expect(onLoadOlder).toHaveBeenCalledTimes(1);
  });

  it('a history shorter than the view asks for more once the list has opened, with no scroll', async () => {
    const area = scrollArea(300);
    const { onLoadOlder } = setup(area);
    expect(onLoadOlder).not.toHaveBeenCalled();
    await frames();
    expect(onLoadOlder).toHaveBeenCalledTimes(1);
  });

  it('shift is on only for the render that prepends an older page', () => {
    const area = scrollArea(3000);
    const { result, rerender } = setup(area);
    expect(result.current).toBe(false);
    rerender({ firstItemIndex: 950, hasMore: true, loadingOlder: false });
    expect(result.current).toBe(true);
    rerender({ firstItemIndex: 950, hasMore: true, loadingOlder: false });
    expect(result.current).toBe(false);
  });
});

describe('useQuoteJump', () => {
  const rows = ['m1', 'm2', 'm3'].map((id) => ({ id, key: id }) as MessageRow);
  const setup = (area: ReturnType<typeof scrollArea>) => {
    const scrollToIndex = vi.fn();
    const list = { current: { scrollToIndex } as unknown as VirtualizerHandle };
    const leaveBottom = vi.fn();
    const hook = renderHook(
      (p: { highlight: { id: string; n: number } | null }) => {
        const moves = useReaderMoves(area.ref);
        useQuoteJump({ scroller: area.ref, list, rows, highlight: p.highlight, moves, leaveBottom });
      },
      { initialProps: { highlight: null } as { highlight: { id: string; n: number } | null } },
    );
    return { ...hook, scrollToIndex, leaveBottom };
  };

  it('scrolls the quoted message to the middle two frames after the jump, leaving the bottom first; once per jump', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const area = scrollArea(3000);
      const { rerender, scrollToIndex, leaveBottom } = setup(area);
      const jump = { id: 'm2', n: 1 };
      rerender({ highlight: jump });
      expect(scrollToIndex).not.toHaveBeenCalled();
      await frames();
      expect(leaveBottom).toHaveBeenCalledTimes(1);
      expect(scrollToIndex).toHaveBeenCalledWith(1, { align: 'center' });
      // 300 ms later the target is not on screen (jsdom has no layout): tried once more.
      act(() => vi.advanceTimersByTime(300));
      expect(scrollToIndex).toHaveBeenCalledTimes(2);
      rerender({ highlight: jump }); // a re-render during the same jump: nothing new
      await frames();
      expect(scrollToIndex).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the second try is dropped when the reader moved meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const area = scrollArea(3000);
      const { rerender, scrollToIndex } = setup(area);
      rerender({ highlight: { id: 'm3', n: 2 } });
      await frames();
      expect(scrollToIndex).toHaveBeenCalledTimes(1);
      act(() => {
        area.ref.current.dispatchEvent(new Event('wheel'));
      });
      act(() => vi.advanceTimersByTime(300));
      expect(scrollToIndex).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** Records the observers made and lets a test deliver their entries. */
class RecordingObserver {
  static made: RecordingObserver[] = [];
  readonly observed = new Set<Element>();
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    RecordingObserver.made.push(this);
  }
  observe(el: Element) {
    this.observed.add(el);
  }
  unobserve(el: Element) {
    this.observed.delete(el);
  }
  disconnect() {
    this.disconnected = true;
    this.observed.clear();
  }
  /** Delivers entries: `ratio` of each element inside the root. */
  deliver(...seen: [Element, number][]) {
    const entries = seen.map(([target, ratio]) => ({ target, isIntersecting: ratio > 0, intersectionRatio: ratio }));
    act(() =>
      this.callback(entries as unknown as IntersectionObserverEntry[], this as unknown as IntersectionObserver),
    );
  }
}

describe('useReadVisibility', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    RecordingObserver.made = [];
  });

  const message = (id: string) => {
    const el = document.createElement('div');
    el.dataset.messageId = id;
    return el;
  };

  const setup = () => {
    vi.stubGlobal('IntersectionObserver', RecordingObserver);
    const root = document.createElement('div');
    const scroller = { current: root };
    const onVisibleUnread = vi.fn();
    const hook = renderHook(
      (p: { onVisibleUnread: (ids: string[]) => void }) => useReadVisibility(scroller, p.onVisibleUnread),
      {
        initialProps: { onVisibleUnread },
      },
    );
    const observer = RecordingObserver.made.at(-1);
    if (!observer) throw new Error('no IntersectionObserver was made');
    return { ...hook, root, observer, onVisibleUnread };
  };

  it('observes watched messages inside the scroll area and reports those at least 25 % visible, on changes only', () => {
    const { result, root, observer, onVisibleUnread } = setup();
    expect(observer.options.root).toBe(root);
    expect(observer.options.threshold).toContain(READ_VISIBLE_RATIO);
    const a = message('m1');
    const b = message('m2');
    act(() => {
      result.current('m1')(a);
      result.current('m2')(b);
    });
    expect([...observer.observed]).toEqual([a, b]);

    observer.deliver([a, 0.2]);
    expect(onVisibleUnread).not.toHaveBeenCalled(); // less than a quarter
    observer.deliver([a, 0.25]);
    expect(onVisibleUnread).toHaveBeenLastCalledWith(['m1']);
    observer.deliver([a, 0.9]);
    expect(onVisibleUnread).toHaveBeenCalledTimes(1); // still visible: nothing new to say
    observer.deliver([b, 1]);
    expect(onVisibleUnread).toHaveBeenLastCalledWith(['m1', 'm2']);
    observer.deliver([a, 0]);
    expect(onVisibleUnread).toHaveBeenLastCalledWith(['m2']);
  });

  it('a message whose row goes away (read, or scrolled out of the rendered range) is unobserved and no longer counted', () => {
    const { result, observer, onVisibleUnread } = setup();
    const a = message('m1');
    act(() => result.current('m1')(a));
    observer.deliver([a, 1]);
    expect(onVisibleUnread).toHaveBeenLastCalledWith(['m1']);
    act(() => result.current('m1')(null));
    expect(observer.observed.has(a)).toBe(false);
    expect(onVisibleUnread).toHaveBeenLastCalledWith([]);
  });

  it('keeps one ref callback per message across renders, reports to the latest callback, and disconnects on unmount', () => {
    const { result, rerender, unmount, observer } = setup();
    const watchA = result.current('m1');
    const later = vi.fn();
    rerender({ onVisibleUnread: later });
    expect(result.current('m1')).toBe(watchA);
    expect(RecordingObserver.made).toHaveLength(1); // a new callback does not rebuild the observer
    const a = message('m1');
    act(() => watchA(a));
    observer.deliver([a, 0.5]);
    expect(later).toHaveBeenCalledWith(['m1']);
    unmount();
    expect(observer.disconnected).toBe(true);
  });
});

describe('useHistoryPosition: opening at «Непрочитанные сообщения»', () => {
  afterEach(() => vi.useRealTimers());

  /** 45 rows, the divider on the 16th; the scroll area has scrollTo, which jsdom lacks, and no divider on screen. */
  function setup() {
    const el = document.createElement('div');
    el.scrollTo = () => {};
    const scroller = { current: el };
    const scrollToIndex = vi.fn();
    const list = { current: { scrollToIndex } as unknown as VirtualizerHandle };
    const leaveBottom = vi.fn();
    const rowsNow = () =>
      Array.from({ length: 45 }, (_, i) => ({ id: `m${i}`, key: `m${i}`, unreadDivider: i === 15 }) as MessageRow);
    const hook = renderHook(({ rows }) => useHistoryPosition({ scroller, list, rows, leaveBottom }), {
      initialProps: { rows: rowsNow() },
    });
    return { ...hook, rowsNow, scrollToIndex, leaveBottom };
  }

  it('scrolls to the divider once the first frames have passed', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const { scrollToIndex, leaveBottom } = setup();
    expect(scrollToIndex).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1_000));
    expect(leaveBottom).toHaveBeenCalled();
    expect(scrollToIndex).toHaveBeenCalledWith(15, { align: 'start' });
  });

  it('still scrolls there when the rows are made again before its first frames (read marks, a preview)', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const { rerender, rowsNow, scrollToIndex } = setup();
    rerender({ rows: rowsNow() });
    rerender({ rows: rowsNow() });
    act(() => vi.advanceTimersByTime(1_000));
    expect(scrollToIndex).toHaveBeenCalledWith(15, { align: 'start' });
  });

  it('nothing is left to run once the list is gone', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const { unmount, scrollToIndex } = setup();
    unmount();
    act(() => vi.advanceTimersByTime(1_000));
    expect(scrollToIndex).not.toHaveBeenCalled();
  });
});
