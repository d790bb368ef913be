// «Обсуждения» at the top of the chat list: shown once one follows a thread, with the unread replies of the followed
// threads; unfolds into the threads (group, root, unread), each opening its group with the thread's panel.
import { repliesText } from '../../contract/format';
import type { FollowedThreadsProps } from './useFollowedThreads';
import './threads.css';

/** « непрочитанный ответ», « непрочитанных ответа», « непрочитанных ответов» after the number (screen readers). */
function unreadWords(n: number): string {
  const word = repliesText(n).slice(String(n).length + 1);
  return word === 'ответ' ? ' непрочитанный ответ' : ` непрочитанных ${word}`;
}

export function ThreadsEntry(props: FollowedThreadsProps) {
  if (props.rows.length === 0) return null;
  return (
    <div className="threads-entry">
      <button
        type="button"
        className="chat-archive-row threads-entry-row"
        data-testid="threads-entry"
        aria-expanded={props.expanded}
        onClick={props.onToggle}
      >
        Обсуждения
        {props.unread > 0 && (
          <span className="threads-entry-count">
            {props.unread}
            <span className="sr-only">{unreadWords(props.unread)}</span>
          </span>
        )}
      </button>
      {props.expanded && (
        <ul className="threads-entry-list" aria-label="Обсуждения">
          {props.rows.map((r) => (
            <li key={r.rootId}>
              <button
                type="button"
                className="threads-entry-item"
                data-testid="followed-thread"
                onClick={() => props.onOpen(r)}
              >
                <span className="threads-entry-title">{r.title}</span>
                <span className="threads-entry-preview">{r.preview}</span>
                {r.unread > 0 && <span className="threads-entry-count">{r.unread}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
