// The incoming-call dialog (docs/behaviour.md §2): 'Входящий аудио/видео звонок', the caller, and 'Отклонить',
// 'Ответить', 'Ответить с видео', with the caller's picture (or initials). In the first bundle: a call arriving on a
// cold or slow load shows its buttons at once. It takes focus when it appears (an urgent interruption, announced as an
// alert dialog), Enter on it answers (as the announcement says, docs/behaviour.md §10.48), Escape declines, and focus
// goes back where it was when it closes.
import { useLayoutEffect, useRef } from 'react';
import { avatarColour, avatarFace } from '../../contract/format';
import { ChatAvatar } from '../shared/ChatAvatar';

export interface IncomingCallDialogProps {
  from: { id: string; name: string; avatarUrl?: string | null };
  /** The caller started a video call. */
  video: boolean;
  onAccept: () => void;
  onAcceptVideo: () => void;
  onDecline: () => void;
}

export function IncomingCallDialog(props: IncomingCallDialogProps) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    box.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);
  return (
    <div
      ref={box}
      className="incoming-call"
      role="alertdialog"
      aria-labelledby="incoming-call-title"
      aria-describedby="incoming-call-from"
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onDecline();
        else if (e.key === 'Enter' && e.target === e.currentTarget) props.onAccept();
      }}
    >
      <h2 id="incoming-call-title" className="incoming-call-title">
        Входящий аудио/видео звонок
      </h2>
      <p id="incoming-call-from" className="incoming-call-from">
        <ChatAvatar
          avatar={{
            face: avatarFace(props.from.avatarUrl ?? null, props.from.name),
            colour: avatarColour(props.from.id),
            presence: null,
          }}
          size={48}
        />
        <span>
          <strong>{props.from.name}</strong>
          <span className="incoming-call-kind">{props.video ? 'Видеозвонок' : 'Аудиозвонок'}</span>
        </span>
      </p>
      <div className="incoming-call-actions">
        <button type="button" className="button call-decline" onClick={props.onDecline}>
          Отклонить
        </button>
        <button type="button" className="button call-accept" onClick={props.onAccept}>
          Ответить
        </button>
        <button type="button" className="button primary" onClick={props.onAcceptVideo}>
          Ответить с видео
        </button>
      </div>
    </div>
  );
}
