// A thread's panel (beside the conversation on wide screens, the whole screen on narrow ones): the root, «N ответов»,
// the replies (older ones on request) with their pictures (opened in the lightbox), files, voice messages and
// quotes, each reply's menu with «Цитировать», own replies still on their way (progress, or «Не отправлено» with «Повторить» and
// «Удалить»), following, and the main composer's view for the thread (text, emoji, «Прикрепить» with the send
// preview, pasted files, the microphone). Renders from props (useThreadPanel).
import { Suspense, useLayoutEffect, useRef, useState } from 'react';
import { Composer, SendPreviewDialog } from '../composer/index';
import { EditedMark, LazyLightbox, LazyMessageMenu, LazyVoicePlayer, MessageText } from '../conversation/deferred';
import { UserAvatar } from '../shared/UserAvatar';
import type { ThreadMessageView, ThreadPanelProps } from './useThreadPanel';
import './threads.css';

/** A found reply is brought into view as it appears. */
const intoView = (el: HTMLLIElement | null) => el?.scrollIntoView?.({ block: 'center' });

function Attachments({ m, onOpenImage }: { m: ThreadMessageView; onOpenImage(url: string): void }) {
  return (
    <>
      {m.attachments.map((a) =>
        a.kind === 'IMAGE' ? (
          <button
            key={a.url}
            type="button"
            className="thread-msg-image"
            aria-label={`Открыть изображение ${a.name}`}
            onClick={() => onOpenImage(a.url)}
          >
            <img src={a.url} alt={a.name} loading="lazy" decoding="async" />
          </button>
        ) : (
          <a key={a.url} className="msg-file" href={a.url} download={a.name} target="_blank" rel="noopener noreferrer">
            <span>Файл: {a.name}</span>
          </a>
        ),
      )}
    </>
  );
}

function Pending({
  pending,
  onRetry,
  onRemove,
}: {
  pending: NonNullable<ThreadMessageView['pending']>;
  onRetry(id: string): void;
  onRemove(id: string): void;
}) {
  if (!pending.failed)
    return (
      <p className="thread-msg-pending" role="status">
        {pending.progress !== null ? `Загрузка файлов… ${pending.progress}%` : 'Отправляется…'}
      </p>
    );
  return (
    <p className="thread-msg-pending failed" role="alert">
      <span>Не отправлено{pending.error && pending.error !== 'upload failed' ? `: ${pending.error}` : ''}</span>{' '}
      <button type="button" className="link-button" onClick={() => onRetry(pending.outboxId)}>
        Повторить
      </button>{' '}
      <button type="button" className="link-button" onClick={() => onRemove(pending.outboxId)}>
        Удалить
      </button>
    </p>
  );
}

function ThreadMessage({
  m,
  testId,
  found = false,
  props,
  onMenu,
}: {
  m: ThreadMessageView;
  testId: string;
  found?: boolean;
  props: ThreadPanelProps;
  /** The reply's menu (replies only: the root is not of the thread, so it cannot be quoted here). */
  onMenu?(opener: HTMLElement): void;
}) {
  return (
    <li
      className={found ? 'thread-msg thread-msg-found' : 'thread-msg'}
      data-testid={testId}
      data-message-id={m.id}
      aria-current={found ? 'true' : undefined}
      ref={found ? intoView : undefined}
    >
      <UserAvatar user={m.sender} size={32} />
      <div className="thread-msg-body">
        <div className="thread-msg-head">
          <span className="thread-msg-name">{m.sender.displayName}</span> <time>{m.time}</time>
          {m.edited && (
            <>
              {' '}
              <EditedMark title={m.edited} messageId={m.id} />
            </>
          )}
        </div>
        {m.reply && (
          <p className="msg-reply thread-msg-quote">
            <span className="msg-reply-label">Ответ на:</span> <span className="msg-reply-text">{m.reply.preview}</span>
          </p>
        )}
        <Attachments m={m} onOpenImage={props.onOpenImage} />
        {m.voice && <LazyVoicePlayer url={m.voice.url} durationMs={m.voice.durationMs} waveform={m.voice.waveform} />}
        {m.text && (
          <div className="thread-msg-text">
            <MessageText text={m.text} mentions={m.mentions} entities={m.entities} />
          </div>
        )}
        {m.pending && <Pending pending={m.pending} onRetry={props.onRetryReply} onRemove={props.onRemoveReply} />}
      </div>
      {onMenu && !m.pending && (
        <button
          type="button"
          className="msg-menu-button thread-msg-menu"
          aria-label="Действия с сообщением"
          aria-haspopup="menu"
          onClick={(e) => onMenu(e.currentTarget)}
        >
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <circle cx="5" cy="12" r="1.8" fill="currentColor" />
            <circle cx="12" cy="12" r="1.8" fill="currentColor" />
            <circle cx="19" cy="12" r="1.8" fill="currentColor" />
          </svg>
        </button>
      )}
    </li>
  );
}

export function ThreadPanel(props: ThreadPanelProps) {
  const [menu, setMenu] = useState<{ id: string; opener: HTMLElement } | null>(null);
  // The keyboard's focus comes into the panel as it opens and goes back where it was when it closes (Escape, «Закрыть
  // обсуждение»), or to the chat's composer when that is gone (docs/behaviour.md §10.49).
  const panel = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus({ preventScroll: true });
    return () => {
      const back = previous?.isConnected
        ? previous
        : document.querySelector<HTMLElement>('[data-testid="chats-conversation-pane"] .composer-input');
      back?.focus({ preventScroll: true });
    };
  }, []);
  return (
    <aside ref={panel} tabIndex={-1} className="thread-panel" aria-label="Обсуждение" data-testid="thread-panel">
      <header className="thread-head">
        <button type="button" className="icon-button" aria-label="Закрыть обсуждение" onClick={props.onClose}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <h2>Обсуждение</h2>
        {props.status === 'ready' && (
          <button
            type="button"
            className="button ghost small thread-follow"
            aria-pressed={props.following}
            disabled={props.busy}
            onClick={props.onFollow}
          >
            {props.following ? 'Не следить' : 'Следить'}
          </button>
        )}
      </header>
      <div className="thread-body">
        {props.status === 'loading' && <p className="thread-note">Загрузка…</p>}
        {props.status === 'failed' && (
          <div className="thread-note" role="alert">
            <p>{props.error}</p>
            <button type="button" className="button small" onClick={props.onRetry}>
              Повторить
            </button>
          </div>
        )}
        {props.status === 'ready' && props.root && (
          <>
            <ol className="thread-list thread-root" aria-label="Сообщение">
              <ThreadMessage m={props.root} testId="thread-root" props={props} />
            </ol>
            <div className="thread-count">{props.count}</div>
            {props.hasMore && (
              <button type="button" className="link-button" disabled={props.loadingMore} onClick={props.onMore}>
                Показать предыдущие ответы
              </button>
            )}
            <ol className="thread-list" aria-label="Ответы">
              {props.rows.map((m) => (
                <ThreadMessage
                  key={m.id}
                  m={m}
                  testId="thread-reply"
                  found={m.id === props.found}
                  props={props}
                  onMenu={(opener) => setMenu({ id: m.id, opener })}
                />
              ))}
            </ol>
          </>
        )}
      </div>
      {props.status === 'ready' && props.error && (
        <p className="thread-error" role="alert">
          {props.error}
        </p>
      )}
      {props.status === 'ready' && (
        <div className="thread-composer">
          <Composer {...props.composer} />
        </div>
      )}
      {menu && (
        <LazyMessageMenu
          at={null}
          opener={menu.opener}
          items={[{ action: 'quote', label: 'Цитировать' }]}
          reactions={false}
          onAction={() => props.onQuote(menu.id)}
          onReact={() => {}}
          onClose={() => setMenu(null)}
        />
      )}
      {props.preview.open && <SendPreviewDialog preview={props.preview} onSend={props.onSendPreview} />}
      {props.lightbox && (
        <Suspense fallback={null}>
          <LazyLightbox items={props.lightbox.items} index={props.lightbox.index} onClose={props.onCloseLightbox} />
        </Suspense>
      )}
    </aside>
  );
}
