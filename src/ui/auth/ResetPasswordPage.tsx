// /reset/<token>: the page a password-reset link opens, signed in or not (docs/administration.md «In the client»),
// in the auth screens' look. Whose account it is, a new password typed twice with the registration screen's rules
// and hint, «Сохранить пароль»; then «Пароль изменён. Войдите с новым паролем.» and «Войти». A link that cannot be
// used shows the server's message and «Войти». Saving ends every sign-in of the account on the server: if this
// browser was signed in as that person, its session ends and the page stays.
import { type FormEvent, useId, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LIMITS } from '../../contract/limits';
import { RESET_DONE } from '../../machines/auth/passwordReset/passwordReset.protocol';
import { AuthFrame } from './AuthLayout';
import { type PasswordResetView, usePasswordReset } from './usePasswordReset';

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const view = usePasswordReset(token);
  return (
    <AuthFrame>
      <ResetPasswordView {...view} />
    </AuthFrame>
  );
}

const signInLink = (
  <Link to="/auth" className="button primary">
    Войти
  </Link>
);

export function ResetPasswordView(props: PasswordResetView) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const ids = { title: useId(), password: useId(), repeat: useId(), hint: useId() };
  const a = props.account;
  if (props.done)
    return (
      <section className="form" aria-labelledby={ids.title}>
        <h2 className="form-title" id={ids.title}>
          Новый пароль
        </h2>
        <p className="notice" role="status">
          {RESET_DONE}
        </p>
        {signInLink}
      </section>
    );
  if (!props.form || !a)
    return (
      <section className="form" aria-labelledby={ids.title}>
        <h2 className="form-title" id={ids.title}>
          Сброс пароля
        </h2>
        {props.error ? (
          <p className="form-error" role="alert">
            {props.error}
          </p>
        ) : (
          <p className="hint" role="status">
            Загружаем…
          </p>
        )}
        {props.error && !props.invalid && (
          <button type="button" className="button" onClick={props.onRetry}>
            Повторить
          </button>
        )}
        {props.invalid && signInLink}
      </section>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit({ password, repeat });
  };
  // Lengths are enforced by the browser as on the registration screen (docs/behaviour.md §5); the actor checks the
  // contract's rules and that both fields agree, and the server checks again.
  return (
    <form className="form" onSubmit={submit} aria-labelledby={ids.title}>
      <h2 className="form-title" id={ids.title}>
        Новый пароль · {a.displayName} (@{a.username})
      </h2>
      <div className="field">
        <label htmlFor={ids.password}>Новый пароль</label>
        <input
          id={ids.password}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={LIMITS.passwordMin}
          maxLength={LIMITS.passwordMax}
          aria-describedby={ids.hint}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <small className="hint" id={ids.hint}>
          Не короче {LIMITS.passwordMin} символов
        </small>
      </div>
      <div className="field">
        <label htmlFor={ids.repeat}>Новый пароль ещё раз</label>
        <input
          id={ids.repeat}
          name="repeat"
          type="password"
          autoComplete="new-password"
          required
          minLength={LIMITS.passwordMin}
          maxLength={LIMITS.passwordMax}
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
        />
      </div>
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      <button type="submit" className="button primary" disabled={props.busy}>
        {props.busy ? 'Сохраняем…' : 'Сохранить пароль'}
      </button>
    </form>
  );
}
