// The organisation's sign-in (docs/behaviour.md §10.41): «Войти через …» on the sign-in page (with the password form
// behind «Вход для администратора» when the administrator turned passwords off), and the page /auth/oidc where the
// provider sends the person back: signed in at once, or a choice to create an account or link an existing one.
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { type OidcSignInViewProps, useOidcSignIn } from './useOidcSignIn';

/** The sign-in page's part: the provider's button, and the password form (`children`) as the server allows. */
export function OidcSignInOffer({
  children,
  ...props
}: {
  provider: string | null;
  passwords: boolean;
  children: ReactNode;
}) {
  if (!props.provider) return <>{children}</>;
  return <OidcSignInOfferLive provider={props.provider} passwords={props.passwords} form={children} />;
}

function OidcSignInOfferLive(props: { provider: string; passwords: boolean; form: ReactNode }) {
  const oidc = useOidcSignIn(null);
  return (
    <OidcOfferView
      provider={props.provider}
      passwords={props.passwords}
      busy={oidc.busy && !oidc.error}
      error={oidc.error}
      onStart={oidc.onStart}
    >
      {props.form}
    </OidcOfferView>
  );
}

export function OidcOfferView({
  children,
  ...props
}: {
  provider: string;
  passwords: boolean;
  busy: boolean;
  error: string | null;
  onStart: () => void;
  children: ReactNode;
}) {
  const [adminForm, setAdminForm] = useState(false);
  return (
    <div className="oidc-offer">
      <button type="button" className="button primary oidc-start" disabled={props.busy} onClick={props.onStart}>
        Войти через {props.provider}
      </button>
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      {props.passwords || adminForm ? (
        <>
          <p className="oidc-or">или</p>
          {children}
        </>
      ) : (
        <button type="button" className="button ghost oidc-admin" onClick={() => setAdminForm(true)}>
          Вход для администратора
        </button>
      )}
    </div>
  );
}

/** /auth/oidc: the provider's answer, finished here. */
export function OidcPage() {
  const { search } = useLocation();
  return <OidcPageView {...useOidcSignIn(search)} />;
}

export function OidcPageView(props: OidcSignInViewProps) {
  const [inviteCode, setInviteCode] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const ids = { invite: useId(), username: useId(), password: useId() };
  const p = props.pending;
  if (props.failed) {
    return (
      <section className="form" aria-labelledby="oidc-title">
        <h2 className="form-title" id="oidc-title">
          Вход не удался
        </h2>
        <p className="form-error" role="alert">
          {props.error}
        </p>
        <button type="button" className="button primary" disabled={props.busy} onClick={props.onStart}>
          Начать вход заново
        </button>
        <Link to="/auth" replace>
          К странице входа
        </Link>
      </section>
    );
  }
  if (!p) {
    return (
      <p className="form oidc-wait" role="status">
        Входим…
      </p>
    );
  }
  const create = (e: FormEvent) => {
    e.preventDefault();
    props.onCreate(inviteCode);
  };
  const link = (e: FormEvent) => {
    e.preventDefault();
    props.onLink(username, password);
  };
  return (
    <div className="oidc-choice">
      <h2 className="form-title">Первый вход{p.displayName ? `, ${p.displayName}` : ''}</h2>
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      {p.canCreate ? (
        <form className="form" onSubmit={create} aria-label="Новая учётная запись">
          <p className="form-hint">Здесь у вас ещё нет учётной записи: её можно создать.</p>
          {p.needsInvite && (
            <div className="field">
              <label htmlFor={ids.invite}>Код приглашения</label>
              <input
                id={ids.invite}
                required
                autoComplete="off"
                value={inviteCode}
                onChange={(e) => setInviteCode(e.target.value)}
              />
            </div>
          )}
          <button type="submit" className="button primary" disabled={props.busy}>
            Создать учётную запись
          </button>
        </form>
      ) : (
        <p className="form-hint">Регистрация на сервере закрыта: можно связать вход с существующей учётной записью.</p>
      )}
      <form className="form" onSubmit={link} aria-labelledby="oidc-link-title">
        <h3 id="oidc-link-title">Связать с существующей учётной записью</h3>
        <p className="form-hint">Войдите один раз с паролем — дальше будете входить через организацию.</p>
        <div className="field">
          <label htmlFor={ids.username}>Никнейм</label>
          <input
            id={ids.username}
            name="username"
            autoComplete="username"
            required
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.password}>Пароль</label>
          <input
            id={ids.password}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <button type="submit" className="button" disabled={props.busy}>
          Связать и войти
        </button>
      </form>
    </div>
  );
}
