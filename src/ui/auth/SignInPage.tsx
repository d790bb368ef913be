import { useSelector } from '@xstate/react';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { useOwnedActor } from '../app/useOwnedActor';
import { PASSWORDS_ONLY } from '../../machines/auth/registrationMode/registrationMode.protocol';
import { OidcSignInOffer } from './OidcSignIn';
import { type PasskeySignInViewProps, usePasskeySignIn } from './usePasskeySignIn';
import { useSignIn } from './useSignIn';

export function SignInPage() {
  const {
    busy,
    error,
    registeredUsername,
    signIn,
    secondFactor,
    secondFactorError,
    secondFactorMethods,
    submitCode,
    usePasskey,
    cancelSecondFactor,
  } = useSignIn();
  // An empty server's first page says who will run it (the registration screen's actor, alive while shown).
  const mode = useOwnedActor('registrationMode');
  const firstAccount = useSelector(mode, (s) => (s?.context.firstAccount ?? false) && s?.context.mode !== 'closed');
  const options = useSelector(mode, (s) => s?.context.signIn ?? PASSWORDS_ONLY);
  if (secondFactor) {
    return (
      <SecondFactorForm
        busy={busy}
        error={secondFactorError}
        methods={secondFactorMethods}
        onSubmit={submitCode}
        onPasskey={usePasskey}
        onCancel={cancelSecondFactor}
      />
    );
  }
  return (
    <>
      <OidcSignInOffer provider={options.provider} passwords={options.passwords}>
        <SignInForm
          busy={busy}
          error={error}
          registeredUsername={registeredUsername}
          firstAccount={firstAccount}
          onSubmit={signIn}
        />
      </OidcSignInOffer>
      {!firstAccount && <PasskeySignIn />}
    </>
  );
}

function PasskeySignIn() {
  const props = usePasskeySignIn();
  return props.supported ? <PasskeySignInView {...props} /> : null;
}

/** «Войти с ключом доступа» (docs/behaviour.md §10.7b): no username, the browser offers the passkeys it keeps. */
export function PasskeySignInView(props: PasskeySignInViewProps) {
  return (
    <div className="passkey-sign-in">
      <button type="button" className="button" disabled={props.busy} onClick={props.onStart}>
        Войти с ключом доступа
      </button>
      <div aria-live="polite">
        {props.error && (
          <p className="form-error" role="alert">
            {props.error}
          </p>
        )}
      </div>
    </div>
  );
}

export function SignInForm(props: {
  busy: boolean;
  error: string | null;
  registeredUsername: string | null;
  /** Nobody has registered yet: there is no account to sign in with. */
  firstAccount?: boolean;
  onSubmit: (username: string, password: string) => void;
}) {
  const [username, setUsername] = useState(props.registeredUsername ?? '');
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit(username, password);
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Вход">
      <h2 className="form-title">С возвращением</h2>
      {props.firstAccount && (
        <p className="inline-note">
          На сервере ещё нет аккаунтов.{' '}
          <Link to="/auth/register" replace>
            Зарегистрируйтесь
          </Link>{' '}
          — первый аккаунт станет администратором.
        </p>
      )}
      {props.registeredUsername && !props.error && (
        <p className="notice" role="status">
          Аккаунт создан. Войдите с новым паролем.
        </p>
      )}
      <label className="field">
        <span>Никнейм</span>
        <input
          name="username"
          autoComplete="username"
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Пароль</span>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      <button type="submit" className="button primary" disabled={props.busy}>
        {props.busy ? 'Входим…' : 'Войти'}
      </button>
    </form>
  );
}

/**
 * The second step of sign-in (docs/behaviour.md §10.7a, §10.7b): a code from the app or a recovery code, or a passkey,
 * as the account has them.
 */
export function SecondFactorForm(props: {
  busy: boolean;
  error: string | null;
  methods?: { totp: boolean; passkey: boolean };
  onSubmit: (code: string, remember: boolean) => void;
  onPasskey?: (remember: boolean) => void;
  onCancel: () => void;
}) {
  const methods = props.methods ?? { totp: true, passkey: false };
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const hintId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit(code.trim(), remember);
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Двухэтапная проверка">
      <h2 className="form-title">Двухэтапная проверка</h2>
      {methods.totp && (
        <>
          <label className="field">
            <span>Код из приложения</span>
            <input
              name="code"
              autoComplete="one-time-code"
              inputMode="text"
              autoCapitalize="off"
              spellCheck={false}
              required
              maxLength={32}
              aria-describedby={hintId}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </label>
          <p className="form-hint" id={hintId}>
            Шесть цифр из приложения-аутентификатора. Нет доступа к приложению — введите один из кодов восстановления.
          </p>
        </>
      )}
      {!methods.totp && <p className="form-hint">Подтвердите вход ключом доступа этого аккаунта.</p>}
      <label className="checkbox">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        <span>Запомнить этот браузер на 30 дней</span>
      </label>
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      {methods.totp && (
        <button type="submit" className="button primary" disabled={props.busy}>
          {props.busy ? 'Проверяем…' : 'Подтвердить'}
        </button>
      )}
      {methods.passkey && props.onPasskey && (
        <button
          type="button"
          className={methods.totp ? 'button' : 'button primary'}
          disabled={props.busy}
          onClick={() => props.onPasskey?.(remember)}
        >
          Использовать ключ доступа
        </button>
      )}
      <button type="button" className="button" disabled={props.busy} onClick={props.onCancel}>
        Назад
      </button>
    </form>
  );
}
