// The /calls page (docs/behaviour.md §2): 'Подключиться к комнате' with a required room field ('demo-room'), 'Войти'
// ('Подключаемся…' while the microphone and camera are checked and the token is requested) and the video server's
// address; then the conference with camera and microphone on, and back to the form when it disconnects. On a page
// over plain http the form says where calls work (docs/behaviour.md §10.23).
import './calls.css';
import { type ComponentType, type FormEvent, Suspense, useState } from 'react';
import type { InsecurePage } from '../../machines/shared/secure-context.protocol';
import { ChatAvatar } from '../shared/ChatAvatar';
import { InsecureText } from '../shared/InsecureNotice';
import type { GuestDoorSlot } from './CallOverlay';
import type { CallHistoryRow } from './call-history';
import type { ConferenceProps, NoiseChoice } from './conference-rules';
import { LazyConference } from './LazyConference';
import { useCallsPage } from './useCallsPage';
import { useNoiseSuppression } from './useNoiseSuppression';

/** `door`: the guests feature's door around the room's call (the app's routes hand it in), as in CallOverlay. */
export function CallsPage({ door }: { door?: GuestDoorSlot }) {
  return <CallsPageView {...useCallsPage()} door={door ?? null} noise={useNoiseSuppression()} />;
}

export interface CallsPageViewProps {
  room: string;
  busy: boolean;
  /** Why the last join failed or the room dropped (Russian). */
  error: string | null;
  /** The page is not a secure context: the https address to go to (shown instead of `error`). */
  insecure?: InsecurePage | null;
  serverUrl: string | null;
  access: { token: string; url: string } | null;
  /** The user's calls (null while they load). */
  history?: CallHistoryRow[] | null;
  historyError?: string | null;
  retryHistory?: () => void;
  callBack?: (conversationId: string, video: boolean) => void;
  join: (room: string) => void;
  left: () => void;
  failed: (message: string, name?: string) => void;
  conference?: ComponentType<ConferenceProps>;
  /** «Пригласить по ссылке» and the guests at the door of the room's call (docs/behaviour.md §10.40). */
  door?: GuestDoorSlot | null;
  /** «Шумоподавление» (useNoiseSuppression.ts). */
  noise?: NoiseChoice | null;
}

export function CallsPageView(props: CallsPageViewProps) {
  const Conference = props.conference ?? LazyConference;
  if (props.access) {
    const { token, url } = props.access;
    const conference = (removeGuest: ((knockId: string) => void) | null) => (
      <Conference
        onRemoveGuest={removeGuest}
        token={token}
        serverUrl={url}
        video
        audio
        leaveLabel="Выйти"
        onLeave={props.left}
        onError={props.failed}
        noise={props.noise ?? null}
      />
    );
    return (
      <section className="calls-room" aria-label={`Комната ${props.room}`}>
        <h1 className="calls-sr-only">Комната {props.room}</h1>
        <Suspense
          fallback={
            <p className="call-loading" role="status">
              Подключаемся…
            </p>
          }
        >
          {props.door ? (
            <props.door room={props.room}>{(removeGuest) => conference(removeGuest)}</props.door>
          ) : (
            conference(null)
          )}
        </Suspense>
      </section>
    );
  }
  return <RoomForm {...props} />;
}

function RoomForm(props: CallsPageViewProps) {
  const [room, setRoom] = useState(props.room);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.join(room);
  };
  return (
    <section className="calls-page">
      <form className="form calls-form" onSubmit={submit} aria-labelledby="calls-title">
        <h1 id="calls-title" className="form-title">
          Подключиться к комнате
        </h1>
        <label className="field">
          <span>Комната</span>
          <input name="room" required value={room} onChange={(e) => setRoom(e.target.value)} autoComplete="off" />
        </label>
        {props.insecure ? (
          <p className="form-error" role="alert">
            <InsecureText topic="calls" page={props.insecure} />
          </p>
        ) : (
          props.error && (
            <p className="form-error" role="alert">
              {props.error}
            </p>
          )
        )}
        <button type="submit" className="button primary" disabled={props.busy}>
          {props.busy ? 'Подключаемся…' : 'Войти'}
        </button>
        <p className="hint calls-server">
          Видеосервер: <code data-testid="video-server">{props.serverUrl ?? 'не известен'}</code>
        </p>
      </form>
      <CallHistory {...props} />
    </section>
  );
}

/** «Недавние звонки»: who, the call in words, when, and a button to call back the same way. */
function CallHistory(props: CallsPageViewProps) {
  return (
    <section className="call-history" aria-labelledby="call-history-title">
      <h2 id="call-history-title" className="section-title">
        Недавние звонки
      </h2>
      {props.historyError ? (
        <div role="alert" className="call-history-status">
          <p>{props.historyError}</p>
          <button type="button" className="button ghost" onClick={props.retryHistory}>
            Повторить
          </button>
        </div>
      ) : !props.history ? (
        <p className="call-history-status" role="status">
          Загружаем…
        </p>
      ) : props.history.length === 0 ? (
        <p className="call-history-status">Звонков пока нет</p>
      ) : (
        <ul className="call-history-list">
          {props.history.map((row) => (
            <li key={row.id} className="call-history-row" data-testid="call-history-row">
              <ChatAvatar avatar={row.avatar} size={40} />
              <span className="call-history-text">
                <span className="call-history-who">{row.who}</span>
                <span className={`call-history-label${row.missed ? ' missed' : ''}`}>{row.label}</span>
              </span>
              <time className="call-history-when" title={row.at}>
                {row.when}
              </time>
              <button
                type="button"
                className="button ghost call-history-back"
                onClick={() => props.callBack?.(row.conversationId, row.video)}
              >
                {row.video ? 'Видеозвонок' : 'Позвонить'}
                <span className="sr-only">: {row.who}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
