// «Безопасность» in Settings (docs/behaviour.md §10.7a): «Двухэтапная проверка» — set up with an authenticator app
// (a QR code and the key as text, confirmed by a first code), ten recovery codes shown once (copy, download), new
// codes, a reset and turning it off (each with the password); and «Ключи доступа» (PasskeysPart.tsx).
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { PasskeysPart } from './PasskeysPart';
import { type TwoFactorViewProps, useTwoFactor } from './useTwoFactor';

export function SecuritySection() {
  return (
    <SecurityView {...useTwoFactor()}>
      <PasskeysPart />
    </SecurityView>
  );
}

export const TWO_FACTOR_REQUIRED_NOTE =
  'Администратор сервера требует двухэтапную проверку. Включите её, чтобы продолжить.';

/** `children`: the section's other parts («Ключи доступа»), under the second factor's. */
export function SecurityView({ children: below, ...props }: TwoFactorViewProps & { children?: ReactNode }) {
  return (
    <section
      className="card form settings-security"
      id="security"
      aria-labelledby="settings-security"
      aria-busy={props.busy}
    >
      <h2 className="form-title" id="settings-security">
        Безопасность
      </h2>
      <h3 className="settings-subtitle">Двухэтапная проверка</h3>
      {props.recoveryCodes ? (
        <RecoveryCodes {...props} codes={props.recoveryCodes} />
      ) : props.settingUp ? (
        <SetUp {...props} />
      ) : props.status?.enabled ? (
        <Enabled {...props} left={props.status.recoveryCodesLeft} />
      ) : props.status ? (
        <>
          {props.status.required && (
            <p className="notice" role="status">
              {TWO_FACTOR_REQUIRED_NOTE}
            </p>
          )}
          <p className="form-hint">
            При входе с нового браузера, кроме пароля, понадобится код из приложения-аутентификатора на телефоне.
          </p>
          <Failure error={props.error} />
          <button type="button" className="button primary" disabled={props.busy} onClick={() => props.onBegin()}>
            Включить двухэтапную проверку
          </button>
        </>
      ) : (
        props.failed && (
          <>
            <Failure error={props.error} />
            <button type="button" className="button" onClick={props.onRetry}>
              Повторить
            </button>
          </>
        )
      )}
      {below}
    </section>
  );
}

function Failure({ error }: { error: string | null }) {
  return (
    <div aria-live="polite">
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function SetUp(props: TwoFactorViewProps) {
  const [code, setCode] = useState('');
  const ids = { code: useId() };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onConfirm(code.trim());
  };
  return (
    <form className="two-factor-setup" onSubmit={submit} aria-label="Настройка двухэтапной проверки">
      <p className="form-hint">
        Отсканируйте QR-код приложением-аутентификатором (например, «Яндекс Ключ», Google Authenticator или Aegis) или
        введите ключ вручную.
      </p>
      {props.qr && <img className="two-factor-qr" src={props.qr} alt="QR-код для приложения-аутентификатора" />}
      <p className="form-hint">
        Ключ:{' '}
        <code className="two-factor-secret" data-testid="two-factor-secret">
          {props.secret}
        </code>
      </p>
      <div className="field">
        <label htmlFor={ids.code}>Код из приложения</label>
        <input
          id={ids.code}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={7}
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </div>
      <Failure error={props.error} />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={props.busy}>
          Подтвердить
        </button>
        <button type="button" className="button" disabled={props.busy} onClick={props.onCancel}>
          Отмена
        </button>
      </div>
    </form>
  );
}

function RecoveryCodes(props: TwoFactorViewProps & { codes: string[] }) {
  const text = `${props.codes.join('\n')}\n`;
  return (
    <div className="two-factor-codes">
      <p className="notice" role="status">
        Двухэтапная проверка включена.
      </p>
      <p className="form-hint">
        Коды восстановления: каждый подходит для одного входа, если телефона нет под рукой. Сохраните их в надёжном
        месте — больше они показаны не будут.
      </p>
      <ol className="recovery-codes" aria-label="Коды восстановления">
        {props.codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="form-actions">
        <button type="button" className="button" onClick={() => props.onCopy(text)}>
          Скопировать
        </button>
        <a
          className="button"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="beseda-recovery-codes.txt"
        >
          Скачать
        </a>
        <button type="button" className="button primary" onClick={props.onDone}>
          Готово
        </button>
      </div>
    </div>
  );
}

function Enabled(props: TwoFactorViewProps & { left: number }) {
  const [password, setPassword] = useState('');
  const id = useId();
  const withPassword = (act: (password: string) => void) => () => {
    act(password);
    setPassword('');
  };
  return (
    <div className="two-factor-enabled">
      <p className="inline-note" role="status">
        Двухэтапная проверка включена. Осталось кодов восстановления: {props.left}.
      </p>
      <div className="field">
        <label htmlFor={id}>Пароль</label>
        <input
          id={id}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <p className="form-hint">Чтобы получить новые коды, сбросить или отключить проверку, введите пароль.</p>
      <Failure error={props.error} />
      <div className="form-actions">
        <button
          type="button"
          className="button"
          disabled={props.busy || !password}
          onClick={withPassword(props.onRegenerate)}
        >
          Новые коды восстановления
        </button>
        <button
          type="button"
          className="button"
          disabled={props.busy || !password}
          onClick={withPassword(props.onBegin)}
        >
          Сбросить
        </button>
        <button
          type="button"
          className="button danger"
          disabled={props.busy || !password}
          onClick={withPassword(props.onDisable)}
        >
          Отключить
        </button>
      </div>
    </div>
  );
}
