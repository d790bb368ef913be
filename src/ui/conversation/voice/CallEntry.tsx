// A call as an entry of the conversation: «Исходящий видеозвонок · 3:12», «Пропущенный звонок», «Звонок отклонён»,
// with a button to call back (same kind of call).
// The voice player's and call entries' styles: the player loads on demand, this does not (the recorder's styles come
// with the composer, src/ui/composer/Composer.tsx).
import './voice.css';

export interface CallEntryProps {
  label: string;
  video: boolean;
  missed: boolean;
  onCallBack?(video: boolean): void;
}

export function CallEntry(props: CallEntryProps) {
  return (
    <div className={`call-entry${props.missed ? ' missed' : ''}`} data-testid="call-entry">
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        {props.video ? (
          <path
            d="M3 7h12v10H3zM15 10l6-3v10l-6-3"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinejoin="round"
          />
        ) : (
          <path
            d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinejoin="round"
          />
        )}
      </svg>
      <span className="call-entry-label">{props.label}</span>
      {props.onCallBack && (
        <button type="button" className="link-button call-entry-back" onClick={() => props.onCallBack?.(props.video)}>
          {props.video ? 'Перезвонить по видео' : 'Перезвонить'}
        </button>
      )}
    </div>
  );
}
