// The message pane when no conversation is open: «Выберите чат» (in the chats page's first bundle, with its styles).
import './no-conversation.css';

/** The message pane when no conversation is selected. */
export function NoConversation() {
  return (
    <div className="conv-placeholder">
      <div className="conv-placeholder-card">
        <svg viewBox="0 0 24 24" width="40" height="40" aria-hidden="true">
          <path
            d="M5 6h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-7l-4 3v-3H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinejoin="round"
          />
        </svg>
        <p>Выберите чат</p>
      </div>
    </div>
  );
}
