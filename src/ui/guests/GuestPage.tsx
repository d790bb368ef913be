// /g/<code>: the page a guest link opens, without an account (docs/behaviour.md §10.40): who invites, the name and the
// camera and microphone check, «Попросить войти», the lobby «Ждём, пока вас впустят», then the call; a clear end
// when turned away, removed or the link is dead, and «Звонок завершён» with «Попросить войти снова» when the call is
// over. A lazy route chunk; the check and the call load their own chunk.
import { Suspense, useEffect, useId } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { CALL_ENCRYPTED, LazyConference } from '../calls/deferred';
import { lazyView } from '../shared/lazy-view';
import { type GuestPageView, useGuestPage } from './useGuestPage';
import './guests.css';

const LazyGuestPrejoin = lazyView(() => import('./GuestPrejoin').then((m) => m.default));

export function GuestPage() {
  const { code = '' } = useParams();
  // A secret chat's link carries its secret in the fragment, which the browser never sends to the server.
  const { hash } = useLocation();
  return <GuestPageContent {...useGuestPage(code, hash)} />;
}

/** «Анна приглашает вас в звонок» (and the group's name when it is one). */
export function invitation(info: GuestPageView['info']): string {
  if (!info) return 'Звонок';
  const who = info.host ? `${info.host} приглашает вас в звонок` : 'Вас приглашают в звонок';
  return info.title ? `${who} группы «${info.title}»` : who;
}

export function GuestPageContent(props: GuestPageView) {
  const titleId = useId();
  // While the guest waits, the call's chunk comes ahead of «Впустить»: the first frame does not wait for it.
  useEffect(() => {
    if (props.lobby) void LazyConference.preload();
  }, [props.lobby]);
  if (props.call && props.media)
    return (
      <main className="guest-call" aria-label="Звонок">
        {props.encrypted && props.callKey && (
          <p className="call-e2ee" data-testid="call-e2ee">
            <span aria-hidden="true">🔒 </span>
            {CALL_ENCRYPTED}. <span data-testid="guest-short-code">Код для сверки: {props.callKey.shortCode}</span>
          </p>
        )}
        <Suspense fallback={<p role="status">Подключаемся…</p>}>
          <LazyConference
            token={props.media.token}
            serverUrl={props.media.url}
            video={props.video}
            audio={props.audio}
            leaveLabel="Выйти"
            onLeave={props.onLeft}
            onError={() => props.onLeft()}
            chat={null}
            e2ee={props.encrypted ? { key: props.callKey } : null}
          />
        </Suspense>
      </main>
    );
  return (
    <main className="guest-page">
      <section className="guest-card" aria-labelledby={titleId} aria-busy={props.busy}>
        <h1 className="guest-title" id={titleId}>
          {props.ended ? 'Звонок' : invitation(props.info)}
        </h1>
        {props.ended && (
          <p className="guest-outcome" role="status" data-testid="guest-outcome">
            {props.error}
          </p>
        )}
        {props.again && (
          <button type="button" className="button" onClick={props.onAgain}>
            Попросить войти снова
          </button>
        )}
        {!props.ended && !props.form && !props.lobby && !props.info && (
          <>
            <p className={props.error ? 'form-error' : 'hint'} role={props.error ? 'alert' : 'status'}>
              {props.error ?? 'Загружаем…'}
            </p>
            {props.error && (
              <button type="button" className="button" onClick={props.onRetry}>
                Повторить
              </button>
            )}
          </>
        )}
        {props.form && (
          <>
            <p className="hint">Аккаунт не нужен. Представьтесь и проверьте камеру и микрофон.</p>
            {props.error && (
              <p className="form-error" role="alert">
                {props.error}
              </p>
            )}
            <Suspense fallback={<p role="status">Загружаем проверку камеры…</p>}>
              <LazyGuestPrejoin name={props.name} busy={props.busy} onKnock={props.onKnock} />
            </Suspense>
          </>
        )}
        {props.lobby && (
          <div className="guest-lobby" data-testid="guest-lobby">
            <p className="guest-waiting" role="status">
              {props.busy ? 'Вас впустили. Подключаемся…' : 'Ждём, пока вас впустят'}
            </p>
            {props.error && (
              <p className="form-error" role="alert">
                {props.error}
              </p>
            )}
            {props.error ? (
              <button type="button" className="button" onClick={props.onRetry}>
                Повторить
              </button>
            ) : (
              !props.busy && (
                <button type="button" className="button" onClick={props.onCancel}>
                  Отменить
                </button>
              )
            )}
          </div>
        )}
      </section>
    </main>
  );
}
