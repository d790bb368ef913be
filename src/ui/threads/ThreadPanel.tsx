// A thread's panel (beside the conversation on wide screens, the whole screen on narrow ones): the root, «N ответов»,
// the replies (older ones on request) with their pictures and files, following, and a composer of its own: text,
// «Прикрепить», «Эмодзи», the quote of a reply («Ответить» on it). Renders from props (useThreadPanel).
import { useRef, useState } from 'react';
import { LazyEmojiPicker } from '../shared/lazy-emoji-picker';
import { UserAvatar } from '../shared/UserAvatar';
import type { ThreadMessageView, ThreadPanelProps } from './useThreadPanel';
import './threads.css';

/** A found reply is brought into view as it appears. */
const intoView = (el: HTMLLIElement | null) => el?.scrollIntoView?.({ block: 'center' });

function Attachments({ m }: { m: ThreadMessageView }) {
  return (
    <>
      {m.attachments.map((a) =>
        a.kind === 'IMAGE' ? (
          <a key={a.url} className="thread-msg-image" href={a.url} target="_blank" rel="noopener noreferrer">
            <img src={a.url} alt={a.name} loading="lazy" decoding="async" />
          </a>
        ) : (
          <a key={a.url} className="msg-file" href={a.url} download={a.name} target="_blank" rel="noopener noreferrer">
            <span>Файл: {a.name}</span>
          </a>
        ),
      )}
    </>
  );
}

function ThreadMessage({
  m,
  testId,
  found = false,
  onQuote,
}: {
  m: ThreadMessageView;
  testId: string;
  found?: boolean;
  /** «Ответить»: quote this reply in the panel's composer (replies only: the root is not of the thread). */
  onQuote?(): void;
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
        </div>
        {m.reply && (
          <p className="msg-reply thread-msg-quote">
            <span className="msg-reply-label">Ответ на:</span> <span className="msg-reply-text">{m.reply.preview}</span>
          </p>
        )}
        <Attachments m={m} />
        {m.text && <p className="thread-msg-text">{m.text}</p>}
        {onQuote && (
          <button type="button" className="link-button thread-msg-answer" onClick={onQuote}>
            Ответить
          </button>
        )}
      </div>
    </li>
  );
}

export function ThreadPanel(props: ThreadPanelProps) {
  const picker = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const emojiButton = useRef<HTMLButtonElement>(null);
  const [emojiAt, setEmojiAt] = useState<{ left: number; bottom: number } | null>(null);
  // The emoji goes in at the caret (replacing a selection), as in the main composer.
  const insertEmoji = (emoji: string) => {
    const el = area.current;
    const start = el?.selectionStart ?? props.draft.length;
    const end = el?.selectionEnd ?? props.draft.length;
    props.onText(props.draft.slice(0, start) + emoji + props.draft.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };
  const toggleEmoji = () => {
    if (emojiAt) return setEmojiAt(null);
    const r = emojiButton.current?.getBoundingClientRect();
    setEmojiAt(
      r ? { left: Math.max(8, r.left), bottom: Math.max(8, window.innerHeight - r.top + 8) } : { left: 8, bottom: 80 },
    );
  };
  const canSend = !props.sending && (props.draft.trim().length > 0 || props.files.length > 0);
  return (
    <aside className="thread-panel" aria-label="Обсуждение" data-testid="thread-panel">
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
              <ThreadMessage m={props.root} testId="thread-root" />
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
                  onQuote={() => props.onQuote(m.id)}
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
        <form
          className="thread-composer"
          onSubmit={(e) => {
            e.preventDefault();
            props.onSend();
          }}
        >
          {props.quote && (
            <div className="thread-quote">
              <span className="msg-reply-label">Ответ на:</span>{' '}
              <span className="msg-reply-text">{props.quote.preview}</span>
              <button
                type="button"
                className="icon-button"
                aria-label="Отменить ответ"
                title="Отменить ответ"
                onClick={() => props.onQuote(null)}
              >
                ×
              </button>
            </div>
          )}
          {props.files.length > 0 && (
            <ul className="thread-files" aria-label="Файлы к ответу">
              {props.files.map((name, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: two files may have the same name
                <li key={`${i}-${name}`}>
                  <span>{name}</span>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Убрать ${name}`}
                    disabled={props.sending}
                    onClick={() => props.onDetach(i)}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          {props.progress !== null && (
            <progress className="thread-progress" max={100} value={props.progress} aria-label="Загрузка файлов" />
          )}
          {emojiAt && (
            <LazyEmojiPicker label="Эмодзи" at={emojiAt} onPick={insertEmoji} onClose={() => setEmojiAt(null)} />
          )}
          <button
            type="button"
            className="icon-button"
            aria-label="Прикрепить"
            title="Прикрепить"
            disabled={props.sending}
            onClick={() => picker.current?.click()}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path
                d="M20 11.5l-7.8 7.8a5 5 0 0 1-7.1-7.1l8.2-8.2a3.4 3.4 0 0 1 4.8 4.8l-8.2 8.2a1.7 1.7 0 0 1-2.4-2.4l7.5-7.5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </button>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            data-testid="thread-attach-input"
            onChange={(e) => {
              const picked = [...(e.target.files ?? [])];
              e.target.value = '';
              if (picked.length) props.onAttach(picked);
            }}
          />
          <textarea
            ref={area}
            aria-label="Ответ в обсуждении"
            placeholder="Ответить в обсуждении…"
            rows={2}
            value={props.draft}
            onChange={(e) => props.onText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                props.onSend();
              }
            }}
          />
          <button
            ref={emojiButton}
            type="button"
            className="icon-button"
            aria-label="Эмодзи"
            title="Эмодзи"
            aria-expanded={emojiAt !== null}
            onPointerEnter={() => void LazyEmojiPicker.preload()}
            onClick={toggleEmoji}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.8" />
              <path
                d="M8.5 14.5a4.5 4.5 0 0 0 7 0"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
              />
              <circle cx="9" cy="10" r="1.2" fill="currentColor" />
              <circle cx="15" cy="10" r="1.2" fill="currentColor" />
            </svg>
          </button>
          <button type="submit" className="button" disabled={!canSend}>
            Отправить
          </button>
        </form>
      )}
    </aside>
  );
}
