// The /calls page (docs/behaviour.md §2): 'Подключиться к комнате' with a required room field ('demo-room'), 'Войти'
// ('Подключаемся…' while the token is requested) and the video server's address; then the conference with
// camera and microphone on, and back to the form when it disconnects.
import '../../../styles/calls.css';
import { type ComponentType, type FormEvent, Suspense, useState } from 'react';
import type { ConferenceProps } from './conference-rules';
import { LazyConference } from './LazyConference';
import { useCallsPage } from './useCallsPage';

export function CallsPage() {
  return <CallsPageView {...useCallsPage()} />;
}

export interface CallsPageViewProps {
  room: string;
  busy: boolean;
  error: string | null;
  serverUrl: string | null;
  access: { token: string; url: string } | null;
  join: (room: string) => void;
  left: () => void;
  failed: (message: string) => void;
  conference?: ComponentType<ConferenceProps>;
}

export function CallsPageView(props: CallsPageViewProps) {
  const Conference = props.conference ?? LazyConference;
  if (props.access) {
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
          <Conference
            token={props.access.token}
            serverUrl={props.access.url}
            video
            audio
            leaveLabel="Выйти"
            onLeave={props.left}
            onError={props.failed}
          />
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
        {props.error && (
          <p className="form-error" role="alert">
            {props.error}
          </p>
        )}
        <button type="submit" className="button primary" disabled={props.busy}>
          {props.busy ? 'Подключаемся…' : 'Войти'}
        </button>
        <p className="hint calls-server">
          Видеосервер: <code data-testid="video-server">{props.serverUrl ?? 'не известен'}</code>
        </p>
      </form>
    </section>
  );
}
