// The message history, virtualized (virtua): long histories render only what is on screen; older pages load
// when the top is reached and are prepended without the view jumping (`shift` on the render that prepends, told
// by firstItemIndex going down); new messages are followed when the reader is within 80 px of the bottom; the
// '↓' button shows from 40 px above it (spec point 9). Messages from others that are at least 25 % visible are
// reported for read receipts.
import { type ReactElement, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Virtualizer, type VirtualizerHandle } from 'virtua';
import { MessageBubble } from './MessageBubble';
import { MessageMenu } from './MessageMenu';
import type { MessageRow } from './view-model';

export const AUTOSCROLL_PX = 80;
export const JUMP_BUTTON_PX = 40;
export const READ_VISIBLE_RATIO = 0.25;
/** Older pages are asked for once the top of the history is this close (rows above the view are measured then). */
const OLDER_PX = 800;
/** The .msg-top-gap height: the virtualizer starts below it (its startMargin). */
const TOP_GAP_PX = 12;
/** Rows rendered beyond each edge of the view: a brisk flick (≈ 50 px a frame) never reaches a blank. */
const BUFFER_PX = 400;

export interface MessageListProps {
  rows: MessageRow[];
  firstItemIndex: number;
  hasMore: boolean;
  loadingOlder: boolean;
  /** The message a quote jump targets; `n` changes on every jump. */
  highlight: { id: string; n: number } | null;
  /** Changes when the user sent something: scroll to the bottom. */
  bottomSignal: number;
  onLoadOlder(): void;
  onVisibleUnread(messageIds: string[]): void;
  onReply(row: MessageRow): void;
  onDelete(messageId: string): void;
  onJump(messageId: string): void;
  onOpenImage(messageId: string, index: number): void;
  onRetry(outboxId: string): void;
  onRemove(outboxId: string): void;
}

type MenuState = { row: MessageRow; at: { x: number; y: number } | null; opener: HTMLElement };

export function MessageList(props: MessageListProps) {
  const list = useRef<VirtualizerHandle>(null);
  const scroller = useRef<HTMLDivElement | null>(null);
  /** Pixels below the view, as of the last scroll (a new row or a grown one does not count until then). */
  const distance = useRef(0);
  const [atBottom, setAtBottom] = useState(true);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const { rows, onVisibleUnread } = props;
  // The latest props for listeners and the rows' callbacks, so neither is re-made on every render of the page.
  const latest = useRef(props);
  latest.current = props;

  // Counts the reader's own moves (wheel, touch, keys, the '↓' button, a send), so a late retry of a jump never
  // pulls them back.
  const userMoves = useRef(0);
  const moved = useCallback(() => {
    userMoves.current += 1;
  }, []);

  // Pinned to the bottom: set by every move there, dropped by any scroll that leaves it. Rows measured after the
  // move change the height below (estimates become sizes), so each resize moves again while pinned. (virtua's
  // scrollToIndex would re-scroll on every measurement for a while, pulling back a reader who just scrolled up.)
  const pinned = useRef(true);
  const toBottom = useCallback(() => {
    pinned.current = true;
    distance.current = 0;
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // Older pages: asked for on scrolls that come near the top, only once the opening scroll to the bottom is done.
  const opened = useRef(false);
  const nearTop = useCallback(() => {
    const el = scroller.current;
    const p = latest.current;
    if (opened.current && el && el.scrollTop < OLDER_PX && p.hasMore && !p.loadingOlder) p.onLoadOlder();
  }, []);
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    distance.current = el.scrollHeight - el.scrollTop - el.clientHeight;
    if (distance.current > 1) pinned.current = false;
    setAtBottom(distance.current <= JUMP_BUTTON_PX);
    nearTop();
  }, [nearTop]);
  // A row or the view changed size: a reader pinned to the bottom stays there (rows measured, the composer growing).
  const onResize = useCallback(() => {
    if (pinned.current) toBottom();
  }, [toBottom]);

  // Opens at the newest message.
  useLayoutEffect(() => {
    toBottom();
    const frame = requestAnimationFrame(() => {
      opened.current = true;
      nearTop(); // a history shorter than the view gets no scroll event
    });
    return () => cancelAnimationFrame(frame);
  }, [toBottom, nearTop]);

  // `shift` only on the render that prepends an older page: virtua then keeps the rows on screen in place.
  const shownFirst = useRef(props.firstItemIndex);
  const prepended = props.firstItemIndex < shownFirst.current;
  const lastKey = rows.at(-1)?.key;
  const shownLastKey = useRef(lastKey);
  useLayoutEffect(() => {
    shownFirst.current = props.firstItemIndex;
    // A new row at the end: followed when the reader was within AUTOSCROLL_PX of the bottom.
    if (lastKey !== shownLastKey.current && distance.current <= AUTOSCROLL_PX) toBottom();
    shownLastKey.current = lastKey;
  }, [props.firstItemIndex, lastKey, toBottom]);

  // Read receipts: which unread messages from others are ≥ 25 % inside the scroll area right now.
  const visible = useRef(new Set<string>());
  const observed = useRef(new Map<string, HTMLElement>());
  const [observer, setObserver] = useState<IntersectionObserver | null>(null);
  const setScroller = useCallback(
    (node: HTMLDivElement | null) => {
      if (node === scroller.current) return;
      scroller.current = node;
      node?.addEventListener('scroll', onScroll, { passive: true });
      for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown']) node?.addEventListener(type, moved, { passive: true });
      if (!node || typeof IntersectionObserver === 'undefined') return setObserver(null);
      setObserver(
        new IntersectionObserver(
          (entries) => {
            let changed = false;
            for (const e of entries) {
              const id = (e.target as HTMLElement).dataset.messageId;
              if (!id) continue;
              const seen = e.isIntersecting && e.intersectionRatio >= READ_VISIBLE_RATIO;
              if (seen !== visible.current.has(id)) {
                changed = true;
                if (seen) visible.current.add(id);
                else visible.current.delete(id);
              }
            }
            if (changed) onVisibleUnread([...visible.current]);
          },
          { root: node, threshold: [0, READ_VISIBLE_RATIO, 1] },
        ),
      );
    },
    [onVisibleUnread, moved, onScroll],
  );
  useEffect(() => {
    if (!observer) return;
    for (const el of observed.current.values()) observer.observe(el);
    return () => observer.disconnect();
  }, [observer]);
  // One stable ref callback per message for as long as the observer and the callback stay the same.
  const watchers = useMemo(() => {
    void observer;
    void onVisibleUnread;
    return new Map<string, (el: HTMLElement | null) => void>();
  }, [observer, onVisibleUnread]);
  const watch = useCallback(
    (id: string) => {
      let fn = watchers.get(id);
      if (!fn) {
        fn = (el: HTMLElement | null) => {
          const before = observed.current.get(id);
          if (before && before !== el) {
            observer?.unobserve(before);
            observed.current.delete(id);
            if (visible.current.delete(id)) onVisibleUnread([...visible.current]);
          }
          if (el) {
            observed.current.set(id, el);
            observer?.observe(el);
          }
        };
        watchers.set(id, fn);
      }
      return fn;
    },
    [watchers, observer, onVisibleUnread],
  );

  // A jump to a quote: scroll it to the middle (once per jump, with the rows of that moment).
  const { highlight } = props;
  useEffect(() => {
    if (!highlight) return;
    // Rows of older pages just prepended for the jump are measured over a frame or two (shift keeps the old view
    // in place meanwhile); so scroll after two frames, and once more if the target is still not on screen.
    const go = () => {
      const index = latest.current.rows.findIndex((r) => r.id === highlight.id);
      if (index < 0) return;
      // Away from the bottom: neither a resize nor a new row may pull the view back before the next scroll.
      pinned.current = false;
      distance.current = Number.POSITIVE_INFINITY;
      list.current?.scrollToIndex(index, { align: 'center' });
    };
    const moves = userMoves.current;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(go);
    });
    const again = setTimeout(() => {
      if (userMoves.current !== moves) return; // the reader went elsewhere meanwhile
      const el = scroller.current?.querySelector(`[data-message-id="${CSS.escape(highlight.id)}"]`);
      const box = el?.getBoundingClientRect();
      const view = scroller.current?.getBoundingClientRect();
      if (!box || !view || box.bottom < view.top || box.top > view.bottom) go();
    }, 300);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(again);
    };
  }, [highlight]);

  // After an own send: to the bottom, whatever the distance.
  const { bottomSignal } = props;
  useEffect(() => {
    if (!bottomSignal) return;
    userMoves.current += 1;
    const frame = requestAnimationFrame(toBottom);
    return () => cancelAnimationFrame(frame);
  }, [bottomSignal, toBottom]);

  const openMenu = useCallback((row: MessageRow, at: MenuState['at'], opener: HTMLElement) => setMenu({ row, at, opener }), []);
  const closeMenu = useCallback(() => setMenu(null), []);
  const onJump = useCallback((id: string) => latest.current.onJump(id), []);
  const onOpenImage = useCallback((id: string, index: number) => latest.current.onOpenImage(id, index), []);
  const onRetry = useCallback((id: string) => latest.current.onRetry(id), []);
  const onRemove = useCallback((id: string) => latest.current.onRemove(id), []);

  // The rows' elements, kept per row object: virtua re-renders on every scroll frame, and an element it has seen
  // before lets it skip the row altogether.
  const elements = useMemo(() => {
    void highlight;
    void watch;
    return new WeakMap<MessageRow, ReactElement>();
  }, [highlight, watch]);
  const renderRow = useCallback(
    (row: MessageRow) => {
      let element = elements.get(row);
      if (!element) {
        element = (
          <MessageBubble
            key={row.key}
            row={row}
            flash={highlight?.id === row.id ? highlight.n : 0}
            onMenu={openMenu}
            onJump={onJump}
            onOpenImage={onOpenImage}
            onRetry={onRetry}
            onRemove={onRemove}
            observe={row.unread ? watch(row.id) : undefined}
          />
        );
        elements.set(row, element);
      }
      return element;
    },
    [elements, highlight, watch, openMenu, onJump, onOpenImage, onRetry, onRemove],
  );

  return (
    <div className="msg-list">
      {/* The scroll area itself is focusable, so keyboard users can scroll the history with the arrow keys. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <div ref={setScroller} className="msg-scroller" tabIndex={0} aria-label="Сообщения" role="log">
        <div className="msg-top-gap" />
        <Virtualizer
          ref={list}
          scrollRef={scroller}
          startMargin={TOP_GAP_PX}
          data={rows}
          shift={prepended}
          bufferSize={BUFFER_PX}
          onResize={onResize}
        >
          {renderRow}
        </Virtualizer>
        <div className="msg-bottom-gap" />
      </div>
      {props.loadingOlder && (
        <div className="msg-older" role="status">
          Загружаем историю…
        </div>
      )}
      {!atBottom && (
        <button
          type="button"
          className="msg-jump"
          aria-label="К последним сообщениям"
          title="К последним сообщениям"
          onClick={() => {
            moved();
            toBottom();
          }}
        >
          ↓
        </button>
      )}
      {menu && (
        <MessageMenu
          at={menu.at}
          opener={menu.opener}
          own={menu.row.own}
          onClose={closeMenu}
          onQuote={() => props.onReply(menu.row)}
          onDelete={() => {
            props.onDelete(menu.row.id);
            scroller.current?.focus({ preventScroll: true });
          }}
        />
      )}
    </div>
  );
}
