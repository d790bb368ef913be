// Small marks of the history: «изменено» on an edited bubble (when, in its title; a button that opens «История
// изменений» where the pane offers it, EditHistoryContext) and the «Непрочитанные сообщения» line above the first
// message that was unread when the conversation opened.
import { useContext } from 'react';
import { EditHistoryContext } from './edit-history';
export function EditedMark({ title, messageId }: { title: string; messageId?: string }) {
  const open = useContext(EditHistoryContext);
  if (open && messageId)
    return (
      <button
        type="button"
        className="msg-edited msg-edited-button"
        title={title}
        data-testid="edited-mark"
        aria-label={`${title}. История изменений`}
        onClick={() => open(messageId)}
      >
        изменено
      </button>
    );
  return (
    <span className="msg-edited" title={title} data-testid="edited-mark">
      изменено<span className="sr-only"> ({title})</span>
    </span>
  );
}

export const UNREAD_DIVIDER_TEXT = 'Непрочитанные сообщения';

export function UnreadDivider() {
  return (
    // A heading: a screen reader jumps to where the unread messages start (docs/behaviour.md §10.48).
    <h3 className="msg-unread-divider" data-testid="unread-divider">
      <span>{UNREAD_DIVIDER_TEXT}</span>
    </h3>
  );
}
