// The message history, virtualized (react-virtuoso): long histories render only what is on screen; older pages
// load when the top is reached and are prepended without the view jumping (firstItemIndex); new messages are
// followed when the reader is within 80 px of the bottom; the '↓' button shows from 40 px above it (spec
// point 9). Messages from others that are at least 25 % visible are reported for read receipts.
import { forwardRef, type HTMLAttributes, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { MessageBubble } from './MessageBubble';
import { MessageMenu } from './MessageMenu';
import type { MessageRow } from './view-model';

export const AUTOSCROLL_PX = 80;
export const JUMP_BUTTON_PX = 40;
export const READ_VISIBLE_RATIO = 0.25;

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

// The scroll area itself is focusable, so keyboard users can scroll the history with the arrow keys.
const Scroller = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function Scroller(props, ref) {
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
  return <div {...props} ref={ref} tabIndex={0} aria-label="Сообщения" role="log" className="msg-scroller" />;
});

const COMPONENTS = {
  Scroller,
  Header: ({ context }: { context?: { loadingOlder: boolean } }) =>
    context?.loadingOlder ? <div className="msg-older">Загружаем историю…</div> : <div className="msg-top-gap" />,
  Footer: () => <div className="msg-bottom-gap" />,
};

export function MessageList(props: MessageListProps) {
  const virtuoso = useRef<VirtuosoHandle>(null);
  const scroller = useRef<HTMLElement | null>(null);
  const distance = useRef(0);
  const [atBottom, setAtBottom] = useState(true);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const { rows, onVisibleUnread, onLoadOlder, hasMore, loadingOlder } = props;

  // Counts the reader's own moves (wheel, touch, keys, the '↓' button, a send), so a late retry of a jump never
  // pulls them back.
  const userMoves = useRef(0);
  const moved = useCallback(() => {
    userMoves.current += 1;
  }, []);

  // Read receipts: which unread messages from others are ≥ 25 % inside the scroll area right now.
  const visible = useRef(new Set<string>());
  const observed = useRef(new Map<string, HTMLElement>());
  const [observer, setObserver] = useState<IntersectionObserver | null>(null);
  const setScroller = useCallback(
    (el: HTMLElement | Window | null) => {
      const node = el instanceof HTMLElement ? el : null;
      if (node === scroller.current) return;
      scroller.current = node;
      const measure = () => {
        if (scroller.current) distance.current = scroller.current.scrollHeight - scroller.current.scrollTop - scroller.current.clientHeight;
      };
      node?.addEventListener('scroll', measure, { passive: true });
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
    [onVisibleUnread, moved],
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
  const rowsNow = useRef(rows);
  rowsNow.current = rows;
  useEffect(() => {
    if (!highlight) return;
    // After older pages were prepended Virtuoso first keeps the old top in place (measuring the new rows over a
    // frame or two); scrolling before that would be undone. So scroll after two frames, and once more if the
    // target is still not on screen.
    const go = () => {
      const index = rowsNow.current.findIndex((r) => r.id === highlight.id);
      if (index >= 0) virtuoso.current?.scrollToIndex({ index, align: 'center', behavior: 'auto' });
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
    const frame = requestAnimationFrame(() => virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' }));
    return () => cancelAnimationFrame(frame);
  }, [bottomSignal]);

  const openMenu = useCallback((row: MessageRow, at: MenuState['at'], opener: HTMLElement) => setMenu({ row, at, opener }), []);
  const closeMenu = useCallback(() => setMenu(null), []);
  const startReached = useCallback(() => {
    if (hasMore && !loadingOlder) onLoadOlder();
  }, [hasMore, loadingOlder, onLoadOlder]);
  const followOutput = useCallback(() => (distance.current <= AUTOSCROLL_PX ? 'auto' : false) as 'auto' | false, []);

  return (
    <div className="msg-list">
      <Virtuoso
        ref={virtuoso}
        className="msg-virtuoso"
        data={rows}
        firstItemIndex={props.firstItemIndex}
        initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
        computeItemKey={(_, row) => row.key}
        followOutput={followOutput}
        atBottomThreshold={JUMP_BUTTON_PX}
        atBottomStateChange={setAtBottom}
        startReached={startReached}
        increaseViewportBy={{ top: 800, bottom: 400 }}
        scrollerRef={setScroller}
        components={COMPONENTS}
        context={{ loadingOlder }}
        itemContent={(_, row) => (
          <MessageBubble
            row={row}
            flash={highlight?.id === row.id ? highlight.n : 0}
            onMenu={openMenu}
            onJump={props.onJump}
            onOpenImage={props.onOpenImage}
            onRetry={props.onRetry}
            onRemove={props.onRemove}
            observe={row.unread ? watch(row.id) : undefined}
          />
        )}
      />
      {!atBottom && (
        <button
          type="button"
          className="msg-jump"
          aria-label="К последним сообщениям"
          title="К последним сообщениям"
          // Instantly: a smooth scroll over rows not measured yet can stop short of the end.
          onClick={() => {
            moved();
            virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' });
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
