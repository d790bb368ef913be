import { type FormEvent, useState } from 'react';
import { useSignIn } from './useSignIn';

export function SignInPage() {
  const { busy, error, registeredUsername, signIn } = useSignIn();
  return <SignInForm busy={busy} error={error} registeredUsername={registeredUsername} onSubmit={signIn} />;
}

export function SignInForm(props: {
  busy: boolean;
  error: string | null;
  registeredUsername: string | null;
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
