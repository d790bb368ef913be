// The message list's behaviours, each hook on its own against a scroll area with set sizes (jsdom has no layout;
// e2e/chats-scroll.spec.ts checks the same rules in Chromium): sticking to the bottom (src/ui/chats/useStickToBottom.ts)
// and reporting visible unread messages (src/ui/chats/useReadVisibility.ts; jsdom has no IntersectionObserver, so
// a recording one stands in and its entries are delivered by hand).
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { READ_VISIBLE_RATIO, useReadVisibility } from '../../src/ui/chats/useReadVisibility';
import { useStickToBottom } from '../../src/ui/chats/useStickToBottom';

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
    act(() => this.callback(entries as unknown as IntersectionObserverEntry[], this as unknown as IntersectionObserver));
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
    const hook = renderHook((p: { onVisibleUnread: (ids: string[]) => void }) => useReadVisibility(scroller, p.onVisibleUnread), {
      initialProps: { onVisibleUnread },
    });
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
