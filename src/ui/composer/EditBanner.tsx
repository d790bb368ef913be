// The composer's banner while an own message is being edited: «Редактирование», the original text, the server's
// message when a save failed, and the close button (Escape does the same).
import { replyPreview } from '../../contract/format';
import './composer.css';

export interface EditBannerProps {
  original: string;
  error: string | null;
  onCancel(): void;
}

export function EditBanner(props: EditBannerProps) {
  return (
    <div className="composer-reply composer-edit" data-testid="edit-banner">
      <div className="composer-reply-text">
        <span className="composer-reply-label">Редактирование</span> <span>{replyPreview(props.original)}</span>
        {props.error && (
          <div className="composer-edit-error" role="alert">
            {props.error}
          </div>
        )}
      </div>
      <button
        type="button"
        className="icon-button small"
        aria-label="Отменить редактирование"
        title="Отменить редактирование"
        onClick={props.onCancel}
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
