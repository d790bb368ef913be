import { type FormEvent, useState } from 'react';
import type { RegistrationMode } from '../../contract/administration';
import { LIMITS } from '../../contract/limits';
import { REGISTRATION_CLOSED } from '../../machines/auth/registrationMode/registrationMode.protocol';
import { useRegister } from './useRegister';

/** Said on an empty server (docs/administration.md): nobody else can be asked who runs it. */
export const FIRST_ACCOUNT_NOTE = 'На сервере ещё нет аккаунтов: первый зарегистрированный станет администратором.';

export function RegisterPage() {
  const { busy, error, register, mode, firstAccount, invite } = useRegister();
  return (
    <RegisterForm
      busy={busy}
      error={error}
      onSubmit={register}
      mode={mode}
      firstAccount={firstAccount}
      invite={invite}
    />
  );
}

export function RegisterForm(props: {
  busy: boolean;
  error: string | null;
  onSubmit: (username: string, displayName: string, password: string, inviteCode?: string) => void;
  /** «По приглашениям» adds «Код приглашения»; «Закрыта» says so instead of the submit (docs/administration.md). */
  mode?: RegistrationMode;
  /** A code from the address (?invite=CODE). */
  invite?: string;
  /** An empty server: the account made here becomes its administrator. */
  firstAccount?: boolean;
}) {
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [inviteCode, setInviteCode] = useState(props.invite ?? '');
  const mode = props.mode ?? 'open';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'closed') return;
    props.onSubmit(username, displayName, password, mode === 'invites' ? inviteCode : undefined);
  };
  // Minimum lengths are enforced by the browser only (docs/behaviour.md §5); the server checks again.
  return (
    <form className="form" onSubmit={submit} aria-label="Регистрация">
      <h2 className="form-title">Новый аккаунт</h2>
      {props.firstAccount && mode !== 'closed' && <p className="inline-note">{FIRST_ACCOUNT_NOTE}</p>}
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
      {mode === 'invites' && (
        <label className="field">
          <span>Код приглашения</span>
          <input
            name="inviteCode"
            autoComplete="off"
            required
            maxLength={64}
            value={inviteCode}
            onChange={(e) => setInviteCode(e.target.value)}
          />
        </label>
      )}
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      {mode === 'closed' ? (
        <p className="form-error" role="status">
          {REGISTRATION_CLOSED}
        </p>
      ) : (
        <button type="submit" className="button primary" disabled={props.busy}>
          {props.busy ? 'Создаем…' : 'Создать аккаунт'}
        </button>
      )}
    </form>
  );
}
