// One message of the conversation (docs/behaviour.md §2): grouped by sender, with time; own messages on the right with
// their delivery (sending, sent, '✓' once someone else read it, failed with 'Повторить' / 'Удалить'); the quoted
// reply 'Ответ на: …' that jumps to the original; images at most 320 px wide and 400 px tall (320×200 when they
// fail to load) that open the lightbox; files as 'Файл: name' with their size; uploads with per-file progress. The menu button (and a right
// click, the context-menu key or Shift+F10) opens the actions. Voice messages and call entries render their own
// components (voice/VoicePlayer.tsx, voice/CallEntry.tsx).
import {
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  memo,
  Suspense,
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import type { FocusMove } from '../../machines/conversation/conversation/conversation.protocol';
import { fileSize } from '../../contract/format';

import { UPLOAD_FAILED } from '../../machines/composer/index';
import { PollSlot } from '../polls/index';
import { LazyEncryptedText } from '../secretChats/deferred';
import { lazyView } from '../shared/lazy-view';
import { useLongPress } from '../shared/useLongPress';
import { UserAvatar } from '../shared/UserAvatar';
import { MessagePreview } from './LinkPreviewCard';
import { messageLabel } from './message-label';
import { EditedMark, UnreadDivider } from './MessageMarks';
import { MessageReactions, ReactionPicker } from './MessageReactions';
import { MessageText } from './MessageText';
import type { AttachmentView, MessageRow } from './view-model';
import { CallEntry } from './voice/CallEntry';
import type { VoicePlayerProps } from './voice/VoicePlayer';
import './conversation.css';

/** The voice player loads with the first voice message on screen (the chats page's first bundle has a budget). */
export const LazyVoicePlayer = lazyView<VoicePlayerProps>(() =>
  import('./voice/VoicePlayer').then((m) => m.VoicePlayer),
);

export const IMAGE_MAX_WIDTH = 320;
/** A tall picture (a phone's screenshot) is cut down to this height, its proportions kept, so it leaves room for the
 * conversation on a phone. */
export const IMAGE_MAX_HEIGHT = 400;
export const IMAGE_FALLBACK = { width: 320, height: 200 };

export interface MessageBubbleProps {
  row: MessageRow;
  /** Counts jumps to this message (0: none); each new value flashes the highlight again. */
  flash: number;
  /** Whether the actions menu can be offered (not for messages the server does not have yet). */
  onMenu(row: MessageRow, at: { x: number; y: number } | null, opener: HTMLElement): void;
  onJump(messageId: string): void;
  onOpenImage(messageId: string, index: number): void;
  onRetry(outboxId: string): void;
  onRemove(outboxId: string): void;
  /** Gives or takes back one's own reaction. */
  onReact(messageId: string, emoji: string): void;
  onCallBack?(video: boolean): void;
  /** A click on the sender's name opens their member card (groups). */
  onSender?(senderId: string, opener: HTMLElement): void;
  /** Opens the thread of this root («N ответов»). */
  onThread?(row: MessageRow): void;
  /** Watches a message from someone else for read receipts. */
  observe?: (el: HTMLElement | null) => void;
  /** The timeline's one tab stop (roving tabindex, docs/behaviour.md §10.48): the focused message, else the newest. */
  tabbable?: boolean;
  /** The message got focus itself (not one of its buttons). */
  onFocused?(messageId: string): void;
  /** ↑/↓/Home/End on the focused message. */
  onMoveFocus?(move: FocusMove): void;
  /** Asked as the message mounts: whether a keyboard move is waiting for it (it was scrolled into view for it). */
  takeFocus?(messageId: string): boolean;
}

const MOVES: Record<string, FocusMove> = { ArrowUp: 'previous', ArrowDown: 'next', Home: 'first', End: 'last' };

/**
 * The timeline item's focus behaviour: its roving tabindex, ↑/↓/Home/End to the neighbours, Enter for the actions
 * (`onEnter`), telling the conversation which message is focused, and taking focus when it mounts for a move that
 * scrolled it into view.
 */
function useTimelineItem(props: MessageBubbleProps, onEnter: ((el: HTMLElement) => void) | null) {
  const { row, observe, takeFocus } = props;
  const own = useRef<HTMLElement | null>(null);
  const ref = useCallback(
    (el: HTMLElement | null) => {
      own.current = el;
      observe?.(el);
    },
    [observe],
  );
  useLayoutEffect(() => {
    if (own.current && takeFocus?.(row.id)) own.current.focus();
  }, [takeFocus, row.id]);
  return {
    ref,
    tabIndex: props.tabbable ? 0 : -1,
    'aria-label': messageLabel(row),
    onFocus: (e: FocusEvent<HTMLElement>) => {
      if (e.target === e.currentTarget) props.onFocused?.(row.id);
    },
    onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
      if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
      const move = MOVES[e.key];
      if (move && props.onMoveFocus) {
        e.preventDefault();
        props.onMoveFocus(move);
      } else if (e.key === 'Enter' && onEnter) {
        e.preventDefault();
        onEnter(e.currentTarget);
      }
    },
  };
}

function imageSize(a: AttachmentView) {
  if (!a.width || !a.height) return null;
  const scale = Math.min(1, IMAGE_MAX_WIDTH / a.width, IMAGE_MAX_HEIGHT / a.height);
  return { width: Math.round(a.width * scale), height: Math.round(a.height * scale) };
}

function MessageImage(props: { a: AttachmentView; onOpen(): void }) {
  const [failed, setFailed] = useState(false);
  const size = imageSize(props.a);
  if (failed) {
    return (
      <button
        type="button"
        className="msg-image msg-image-failed"
        style={IMAGE_FALLBACK}
        onClick={props.onOpen}
        aria-label={`Изображение ${props.a.name} (не загрузилось)`}
      >
        <span>Изображение не загрузилось</span>
      </button>
    );
  }
  return (
    <button
      type="button"
      className="msg-image"
      onClick={props.onOpen}
      aria-label={`Открыть изображение ${props.a.name}`}
    >
      <img
        src={props.a.url}
        alt={props.a.name}
        loading="lazy"
        decoding="async"
        width={size?.width}
        height={size?.height}
        style={{ maxWidth: IMAGE_MAX_WIDTH }}
        onError={() => setFailed(true)}
      />
    </button>
  );
}

/** The outbox's reason in words: the upload's internal 'upload failed', else the server's (Russian) message. */
function failureText(error: string | null): string {
  if (error === UPLOAD_FAILED) return 'Файл не загрузился';
  return error ?? 'Не отправлено';
}

const DELIVERY_LABEL = {
  sending: 'Отправляется',
  sent: 'Отправлено',
  read: 'Прочитано',
  failed: 'Не отправлено',
} as const;

function DeliveryMark({ delivery }: { delivery: MessageRow['delivery'] }) {
  if (!delivery) return null;
  if (delivery === 'read') {
    return (
      <span className="msg-check" title={DELIVERY_LABEL.read} data-testid="read-mark">
        ✓<span className="sr-only"> {DELIVERY_LABEL.read}</span>
      </span>
    );
  }
  if (delivery === 'sending') {
    return (
      <span className="msg-clock" title={DELIVERY_LABEL.sending}>
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path d="M8 4.8V8l2 1.4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
        <span className="sr-only">{DELIVERY_LABEL.sending}</span>
      </span>
    );
  }
  if (delivery === 'sent') return <span className="sr-only">{DELIVERY_LABEL.sent}</span>;
  return null;
}

function MessageBubbleView(props: MessageBubbleProps) {
  const { row } = props;
  const { reply, pending } = row;
  const canMenu = row.pending === null;
  const openMenu = (e: MouseEvent<HTMLElement>) => {
    if (!canMenu) return;
    e.preventDefault();
    props.onMenu(row, { x: e.clientX, y: e.clientY }, e.currentTarget);
  };
  const longPress = useLongPress<HTMLElement>((at, target) => {
    if (canMenu) props.onMenu(row, at, target);
  });
  const item = useTimelineItem(props, canMenu ? (el) => props.onMenu(row, null, el) : null);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    item.onKeyDown(e);
    if (!canMenu || e.defaultPrevented) return;
    if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      e.preventDefault();
      props.onMenu(row, null, e.target as HTMLElement);
    }
  };
  const images = row.attachments.filter((a) => a.kind === 'IMAGE');
  const files = row.attachments.filter((a) => a.kind === 'FILE');
  if (row.system) {
    // A group's change: a line in the timeline, no bubble and no menu.
    return (
      <div className="msg-row system" data-day-of={row.dayOf}>
        {row.day && <DayLine day={row.day} />}
        <article className="msg-system" data-testid="system-entry" data-message-id={row.id} {...item}>
          {row.system} <time>{row.time}</time>
        </article>
      </div>
    );
  }
  return (
    <div
      className={`msg-row${row.own ? ' own' : ''}${row.firstInRun ? ' first' : ''}${row.lastInRun ? ' last' : ''}`}
      data-day-of={row.dayOf}
    >
      {row.day && <DayLine day={row.day} />}
      {row.unreadDivider && <UnreadDivider />}
      <article
        {...item}
        className={`msg${row.own ? ' own' : ''}${row.delivery === 'failed' ? ' failed' : ''}`}
        data-testid="message"
        data-message-id={row.id}
        data-own={row.own ? 'true' : undefined}
        data-delivery={row.delivery ?? undefined}
        onContextMenu={openMenu}
        onKeyDown={onKeyDown}
        {...longPress}
      >
        {props.flash > 0 && <span key={props.flash} className="msg-flash" aria-hidden="true" />}
        {row.showSender &&
          (props.onSender ? (
            <button
              type="button"
              className="msg-sender msg-sender-link"
              onClick={(e) => props.onSender?.(row.senderId, e.currentTarget)}
            >
              {row.senderName}
            </button>
          ) : (
            <div className="msg-sender">{row.senderName}</div>
          ))}
        {row.forwardedFrom && <span className="msg-forwarded">Переслано · {row.forwardedFrom}</span>}
        {row.reminderOf && (
          <a className="msg-forwarded" href={row.reminderOf}>
            Открыть беседу с сообщением
          </a>
        )}
        {reply && (
          <button type="button" className="msg-reply" onClick={() => props.onJump(reply.id)}>
            <span className="msg-reply-label">Ответ на:</span> <span className="msg-reply-text">{reply.preview}</span>
          </button>
        )}
        {images.length > 0 && (
          <div className={`msg-images${images.length > 1 ? ' many' : ''}`}>
            {images.map((a, i) => (
              <MessageImage key={a.url} a={a} onOpen={() => props.onOpenImage(row.id, i)} />
            ))}
          </div>
        )}
        {files.map((a) => (
          <a key={a.url} className="msg-file" href={a.url} download={a.name} target="_blank" rel="noopener noreferrer">
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path
                d="M7 3h7l5 5v12a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm7 0v5h5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.6"
                strokeLinejoin="round"
              />
            </svg>
            <span className="msg-file-name">Файл: {a.name}</span>
            {a.size != null && <span className="msg-file-size">{fileSize(a.size)}</span>}
          </a>
        ))}
        {row.voice && (
          <LazyVoicePlayer url={row.voice.url} durationMs={row.voice.durationMs} waveform={row.voice.waveform} />
        )}
        {row.call && <CallEntry {...row.call} onCallBack={props.onCallBack} />}
        {row.poll && <PollSlot messageId={row.id} poll={row.poll} />}
        {row.pending?.files.some((f) => !f.done) && (
          <ul className="msg-uploads" aria-label="Загрузка файлов">
            {row.pending.files.map((f) => (
              <li key={f.name}>
                <span className="msg-upload-name">{f.name}</span>
                <progress max={100} value={f.progress} aria-label={`Загрузка ${f.name}`} />
              </li>
            ))}
          </ul>
        )}
        {row.encrypted ? (
          <Suspense fallback={<p className="msg-text msg-secret-note">Расшифровывается…</p>}>
            <LazyEncryptedText
              messageId={row.id}
              {...row.encrypted}
              voicePlayer={LazyVoicePlayer}
              // Its pictures follow the message's own in the lightbox's list (galleryOf).
              onOpenImage={(i) => props.onOpenImage(row.id, images.length + i)}
            />
          </Suspense>
        ) : (
          row.text && <MessageText text={row.text} mentions={row.mentions} entities={row.entities} />
        )}
        {row.hasPreview && <MessagePreview messageId={row.id} />}
        <div className="msg-meta">
          {row.edited && <EditedMark title={row.edited} messageId={row.encrypted ? undefined : row.id} />}
          <time>{row.time}</time>
          <DeliveryMark delivery={row.delivery} />
        </div>
        {canMenu && (
          <button
            type="button"
            className="msg-menu-button"
            aria-label="Действия с сообщением"
            aria-haspopup="menu"
            onClick={(e) => props.onMenu(row, null, e.currentTarget)}
          >
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
              <circle cx="5" cy="12" r="1.8" fill="currentColor" />
              <circle cx="12" cy="12" r="1.8" fill="currentColor" />
              <circle cx="19" cy="12" r="1.8" fill="currentColor" />
            </svg>
          </button>
        )}
        {canMenu && !row.unverified && <ReactionPicker onPick={(emoji) => props.onReact(row.id, emoji)} />}
        <MessageReactions reactions={row.reactions} onToggle={(emoji) => props.onReact(row.id, emoji)} />
        {row.thread && (
          <button
            type="button"
            className="msg-thread"
            data-testid="thread-summary"
            onClick={() => props.onThread?.(row)}
          >
            <span className="msg-thread-faces" aria-hidden="true">
              {row.thread.repliers.map((u) => (
                <UserAvatar key={u.id} user={u} size={20} />
              ))}
            </span>
            <span className="msg-thread-count">{row.thread.label}</span>
          </button>
        )}
        {row.delivery === 'failed' && pending && (
          <div className="msg-failed">
            <span className="msg-failed-text" data-error={pending.error ?? undefined}>
              {failureText(pending.error)}
            </span>
            {pending.retryable && (
              <button type="button" className="link-button" onClick={() => props.onRetry(pending.outboxId)}>
                Повторить
              </button>
            )}
            <button type="button" className="link-button danger" onClick={() => props.onRemove(pending.outboxId)}>
              Удалить
            </button>
          </div>
        )}
      </article>
    </div>
  );
}

/** A day's line in the timeline: a heading, so a screen reader jumps from day to day. */
function DayLine({ day }: { day: string }) {
  return (
    <h3 className="msg-day">
      <span>{day}</span>
    </h3>
  );
}

export const MessageBubble = memo(MessageBubbleView);
