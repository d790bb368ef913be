// A thread's panel (beside the conversation on wide screens, the whole screen on narrow ones): the root, «N ответов»,
// the replies (older ones on request), following, and a composer of its own. Renders from props (useThreadPanel).
import { UserAvatar } from '../shared/UserAvatar';
import type { ThreadMessageView, ThreadPanelProps } from './useThreadPanel';
import './threads.css';

/** A found reply is brought into view as it appears. */
const intoView = (el: HTMLLIElement | null) => el?.scrollIntoView?.({ block: 'center' });

function ThreadMessage({ m, testId, found = false }: { m: ThreadMessageView; testId: string; found?: boolean }) {
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
        <p className="thread-msg-text">{m.text}</p>
      </div>
    </li>
  );
}

export function ThreadPanel(props: ThreadPanelProps) {
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
                <ThreadMessage key={m.id} m={m} testId="thread-reply" found={m.id === props.found} />
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
          <textarea
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
          <button type="submit" className="button" disabled={props.sending || !props.draft.trim()}>
            Отправить
          </button>
        </form>
      )}
    </aside>
  );
}
