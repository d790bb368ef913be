// The message history, virtualized (virtua): long histories render only what is on screen. Each behaviour is its
// own hook: staying at the newest message (useStickToBottom), older pages loaded at the top and prepended in place
// (useOlderPages), scrolling to a quoted message (useQuoteJump, which yields to the reader's own moves counted by
// useReaderMoves) and reporting visible unread messages for read receipts (useReadVisibility). This file renders.
import {
  type CSSProperties,
  type ReactElement,
  type ReactNode,
  type Ref,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Virtualizer, type VirtualizerHandle } from 'virtua';
import type { FocusMove } from '../../machines/conversation/conversation/conversation.protocol';

import './message-extras.css';
import { lazyView } from '../shared/lazy-view';
import { MessageBubble } from './MessageBubble';
import type { MessageMenuProps } from './MessageMenu';
import { type MenuOptions, type MessageAction, menuItems } from './message-actions';
import { useHistoryPosition } from './useHistoryPosition';
import { useOlderPages } from './useOlderPages';
import { useQuoteJump } from './useQuoteJump';
import { useReaderMoves } from './useReaderMoves';
import { useReadVisibility } from './useReadVisibility';
import { useStickToBottom } from './useStickToBottom';
import type { MessageRow } from './view-model';
import './conversation.css';

/** The message menu loads when first opened (a right click, the menu key or the message's button). */
/**
 * The rows' container as virtua draws it, but with pointer events kept: virtua turns them off while the list scrolls
 * and for 150 ms after, so a click right after a scroll (a wheel turn, an image scrolled into view) fell on the
 * scroller instead of the message, and the image or button under the pointer did nothing.
 */
function RowsContainer({
  style,
  children,
  ref,
}: {
  style: CSSProperties;
  children: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div ref={ref} style={{ ...style, pointerEvents: undefined }}>
      {children}
    </div>
  );
}

export const LazyMessageMenu = lazyView<MessageMenuProps>(() => import('./MessageMenu').then((m) => m.MessageMenu));

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
  onEdit(row: MessageRow): void;
  /** The menu's other actions (copy, forward, pin, select, info, delete, hide). */
  onAction(action: MessageAction, row: MessageRow): void;
  /** What the menu offers beyond a message's own rules. */
  menuOptions: MenuOptions;
  /** «Другие реакции» on a message: the emoji picker for it. */
  onMoreReactions?(row: MessageRow): void;
  /** Selection mode: a checkbox on each message, a click picks it. */
  selection?: { ids: ReadonlySet<string>; onToggle(messageId: string): void } | null;
  onReact(messageId: string, emoji: string): void;
  onJump(messageId: string): void;
  onOpenImage(messageId: string, index: number): void;
  onRetry(outboxId: string): void;
  /** Call back from a call entry (the conversation's own call). */
  onCall?(video: boolean): void;
  onRemove(outboxId: string): void;
  /** A group's sender name: their member card (docs/behaviour.md §10.26). */
  onSender?(senderId: string, opener: HTMLElement): void;
  /** The message the keyboard is on (the conversation actor's focusedId); null: none yet. */
  focusedId?: string | null;
  /** The last keyboard move's message (`n` changes on every move): scrolled into view and focused. */
  focusMove?: { id: string; n: number } | null;
  onFocusMessage?(messageId: string): void;
  /** ↑/↓/Home/End on a message: the rows' ids as drawn go with it. */
  onMoveFocus?(move: FocusMove, ids: string[]): void;
}

/** The timeline's item elements (messages and group entries), found by message id among those mounted. */
function mountedItem(scroller: HTMLElement | null, id: string): HTMLElement | null {
  for (const el of scroller?.querySelectorAll<HTMLElement>('article[data-message-id]') ?? [])
    if (el.dataset.messageId === id) return el;
  return null;
}

type MenuState = { row: MessageRow; at: { x: number; y: number } | null; opener: HTMLElement };

export function MessageList(props: MessageListProps) {
  const list = useRef<VirtualizerHandle>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const { rows, highlight } = props;
  // The latest props for the rows' callbacks, so they are not re-made on every render of the page.
  const latest = useRef(props);
  latest.current = props;

  const moves = useReaderMoves(scroller);
  const bottom = useStickToBottom({
    scroller,
    lastKey: rows.at(-1)?.key,
    bottomSignal: props.bottomSignal,
    onReaderMove: moves.moved,
  });
  const shift = useOlderPages({
    scroller,
    firstItemIndex: props.firstItemIndex,
    hasMore: props.hasMore,
    loadingOlder: props.loadingOlder,
    onLoadOlder: props.onLoadOlder,
  });
  useQuoteJump({ scroller, list, rows, highlight, moves, leaveBottom: bottom.leave });
  const watch = useReadVisibility(scroller, props.onVisibleUnread);
  const position = useHistoryPosition({ scroller, list, rows, leaveBottom: bottom.leave });

  const openMenu = useCallback(
    (row: MessageRow, at: MenuState['at'], opener: HTMLElement) => setMenu({ row, at, opener }),
    [],
  );
  const closeMenu = useCallback(() => setMenu(null), []);
  const onJump = useCallback((id: string) => latest.current.onJump(id), []);
  const onOpenImage = useCallback((id: string, index: number) => latest.current.onOpenImage(id, index), []);
  const onRetry = useCallback((id: string) => latest.current.onRetry(id), []);
  const onRemove = useCallback((id: string) => latest.current.onRemove(id), []);
  const onReact = useCallback((id: string, emoji: string) => latest.current.onReact(id, emoji), []);
  const onCallBack = useCallback((video: boolean) => latest.current.onCall?.(video), []);
  const withSender = Boolean(props.onSender);
  const onSender = useCallback((id: string, el: HTMLElement) => latest.current.onSender?.(id, el), []);
  const onThread = useCallback((row: MessageRow) => latest.current.onAction('thread', row), []);

  // The roving tabindex (docs/behaviour.md §10.48): the focused message is the timeline's one tab stop, else the
  // newest. A keyboard move to a row out of view scrolls to it; the row takes focus as it mounts (takeFocus).
  const tabbableId = rows.some((r) => r.id === props.focusedId) ? (props.focusedId ?? null) : (rows.at(-1)?.id ?? null);
  const wantFocus = useRef<string | null>(null);
  const takeFocus = useCallback((id: string) => {
    if (wantFocus.current !== id) return false;
    wantFocus.current = null;
    return true;
  }, []);
  const bringFocus = useCallback((id: string) => {
    const el = mountedItem(scroller.current, id);
    if (el) {
      el.focus();
      return;
    }
    const index = latest.current.rows.findIndex((r) => r.id === id);
    if (index < 0) return;
    wantFocus.current = id;
    list.current?.scrollToIndex(index, { align: 'nearest' });
  }, []);
  const focusMove = props.focusMove;
  useLayoutEffect(() => {
    if (focusMove) bringFocus(focusMove.id);
  }, [focusMove, bringFocus]);
  const onFocused = useCallback((id: string) => latest.current.onFocusMessage?.(id), []);
  const onMoveFocus = useCallback(
    (move: FocusMove) =>
      latest.current.onMoveFocus?.(
        move,
        latest.current.rows.filter((r) => !r.threadRootId).map((r) => r.id),
      ),
    [],
  );

  // The rows' elements, kept per row object: virtua re-renders on every scroll frame, and an element it has seen
  // before lets it skip the row altogether. A new highlight starts a new cache (the flash is part of the element).
  const selection = props.selection ?? null;
  const renderRow = useMemo(() => {
    const elements = new WeakMap<MessageRow, ReactElement>();
    return (row: MessageRow) => {
      let element = elements.get(row);
      if (!element && selection && row.type !== 'SYSTEM' && !row.pending) {
        const picked = selection.ids.has(row.id);
        element = (
          <label key={row.key} className={`msg-selectable${picked ? ' picked' : ''}`} data-testid="selectable">
            <input
              type="checkbox"
              className="msg-select-box"
              checked={picked}
              onChange={() => selection.onToggle(row.id)}
              aria-label={`Выбрать сообщение · ${row.senderName}: ${row.text || row.time}`}
            />
            <div className="msg-select-body" inert>
              <MessageBubble
                row={row}
                flash={0}
                onMenu={openMenu}
                onJump={onJump}
                onOpenImage={onOpenImage}
                onRetry={onRetry}
                onRemove={onRemove}
                onReact={onReact}
                onCallBack={onCallBack}
              />
            </div>
          </label>
        );
        elements.set(row, element);
      }
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
            onReact={onReact}
            onCallBack={onCallBack}
            onSender={withSender ? onSender : undefined}
            onThread={onThread}
            observe={row.unread ? watch(row.id) : undefined}
            tabbable={row.id === tabbableId}
            onFocused={onFocused}
            onMoveFocus={onMoveFocus}
            takeFocus={takeFocus}
          />
        );
        elements.set(row, element);
      }
      return element;
    };
  }, [
    highlight,
    watch,
    openMenu,
    onJump,
    onOpenImage,
    onRetry,
    onRemove,
    onReact,
    onCallBack,
    onThread,
    selection,
    withSender,
    onSender,
    tabbableId,
    onFocused,
    onMoveFocus,
    takeFocus,
  ]);

  return (
    <div className="msg-list">
      {/* A log of articles, one per message, with day headings (docs/behaviour.md §10.48). Not live (aria-live off):
          rows the virtualizer mounts as one scrolls are not read out; arrivals are the announcer's to say. The scroll
          area is focusable (keyboard scrolling of an empty history); Tab into it from outside goes on to the message
          that is the timeline's tab stop. */}
      <div
        ref={scroller}
        className="msg-scroller"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        aria-label="Сообщения"
        role="log"
        aria-live="off"
        aria-busy={props.loadingOlder}
        onFocus={(e) => {
          const from = e.relatedTarget as Node | null;
          if (e.target === e.currentTarget && tabbableId && !(from && e.currentTarget.contains(from)))
            bringFocus(tabbableId);
        }}
      >
        <div className="msg-top-gap" />
        <Virtualizer
          ref={list}
          as={RowsContainer}
          scrollRef={scroller}
          startMargin={TOP_GAP_PX}
          data={rows}
          shift={shift}
          bufferSize={BUFFER_PX}
          onResize={bottom.onResize}
        >
          {renderRow}
        </Virtualizer>
        <div className="msg-bottom-gap" />
      </div>
      {position.topDay && !bottom.atBottom && (
        <div className="msg-sticky-day" aria-hidden="true" data-testid="sticky-day">
          <span>{position.topDay}</span>
        </div>
      )}
      {props.loadingOlder && (
        <div className="msg-older" role="status">
          Загружаем историю…
        </div>
      )}
      {!bottom.atBottom && (
        <button
          type="button"
          className="msg-jump"
          aria-label={
            position.unreadBelow
              ? `К последним сообщениям, непрочитанных: ${position.unreadBelow}`
              : 'К последним сообщениям'
          }
          title="К последним сообщениям"
          onClick={() => {
            moves.moved();
            bottom.toBottom();
          }}
        >
          ↓
          {position.unreadBelow > 0 && (
            <span className="msg-jump-count" data-testid="unread-below" aria-hidden="true">
              {position.unreadBelow}
            </span>
          )}
        </button>
      )}
      {menu && (
        <LazyMessageMenu
          at={menu.at}
          opener={menu.opener}
          items={menuItems(menu.row, props.menuOptions)}
          onClose={closeMenu}
          onAction={(action) => {
            if (action === 'quote') props.onReply(menu.row);
            else if (action === 'edit') props.onEdit(menu.row);
            else {
              props.onAction(action, menu.row);
              // Back to the message (still there unless the action removed it), else the history.
              const back = menu.opener.isConnected ? menu.opener : scroller.current;
              back?.focus({ preventScroll: true });
            }
          }}
          onReact={(emoji) => props.onReact(menu.row.id, emoji)}
          reactions={!menu.row.unverified}
          onMoreReactions={props.onMoreReactions ? () => props.onMoreReactions?.(menu.row) : undefined}
        />
      )}
    </div>
  );
}
