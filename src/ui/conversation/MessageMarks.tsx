// Small marks of the history: «изменено» on an edited bubble (when, in its title) and the
// «Непрочитанные сообщения» line above the first message that was unread when the conversation opened.
export function EditedMark({ title }: { title: string }) {
  return (
    <span className="msg-edited" title={title} data-testid="edited-mark">
      изменено<span className="sr-only"> ({title})</span>
    </span>
  );
}

export const UNREAD_DIVIDER_TEXT = 'Непрочитанные сообщения';

export function UnreadDivider() {
  return (
    <div className="msg-unread-divider" data-testid="unread-divider">
      <span>{UNREAD_DIVIDER_TEXT}</span>
    </div>
  );
}
