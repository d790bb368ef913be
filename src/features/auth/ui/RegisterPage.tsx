import { type FormEvent, useState } from 'react';
import { LIMITS } from '../../../contract/limits';
import { useRegister } from './useRegister';

export function RegisterPage() {
  const { busy, error, register } = useRegister();
  return <RegisterForm busy={busy} error={error} onSubmit={register} />;
}

export function RegisterForm(props: {
  busy: boolean;
  error: string | null;
  onSubmit: (username: string, displayName: string, password: string) => void;
}) {
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit(username, displayName, password);
  };
  // Minimum lengths are enforced by the browser only (docs/behaviour.md §5); the server checks again.
  return (
    <form className="form" onSubmit={submit} aria-label="Регистрация">
      <h2 className="form-title">Новый аккаунт</h2>
      <label className="field">
        <span>Никнейм</span>
        <input
          name="username"
          autoComplete="username"
          required
          minLength={LIMITS.usernameMin}
          maxLength={LIMITS.usernameMax}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Отображаемое имя</span>
        <input
          name="displayName"
          autoComplete="nickname"
          required
          minLength={LIMITS.displayNameMin}
          maxLength={LIMITS.displayNameMax}
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </label>
      <div className="field">
        <label htmlFor="register-password">Пароль</label>
        <input
          id="register-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={LIMITS.passwordMin}
          maxLength={LIMITS.passwordMax}
          aria-describedby="register-password-hint"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <small className="hint" id="register-password-hint">
          Не короче {LIMITS.passwordMin} символов
        </small>
      </div>
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      <button type="submit" className="button primary" disabled={props.busy}>
        {props.busy ? 'Создаем…' : 'Создать аккаунт'}
      </button>
    </form>
  );
}
