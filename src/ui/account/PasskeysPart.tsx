// «Безопасность» → «Ключи доступа» (docs/behaviour.md §10.7b): the account's passkeys with when each was added and
// last used, adding one (a name and the password, then the browser's own prompt), renaming, and removing one with the
// password.
import { type FormEvent, useId, useState } from 'react';
import type { Passkey } from '../../machines/account/passkeys/passkeys.protocol';
import { type PasskeysViewProps, usePasskeys } from './usePasskeys';

export function PasskeysPart() {
  return <PasskeysView {...usePasskeys()} />;
}

const when = (iso: string) => new Date(iso).toLocaleString('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' });

export function PasskeysView(props: PasskeysViewProps) {
  const titleId = useId();
  return (
    <section className="passkeys" aria-labelledby={titleId}>
      <h3 className="settings-subtitle" id={titleId}>
        Ключи доступа
      </h3>
      <p className="form-hint">
        Вход без пароля — по отпечатку пальца, лицу или PIN-коду этого устройства или телефона. Ключом можно и
        подтвердить вход по паролю вместо кода из приложения.
      </p>
      {props.failed ? (
        <>
          <Said error={props.error} notice={null} />
          <button type="button" className="button" onClick={props.onRetry}>
            Повторить
          </button>
        </>
      ) : (
        <>
          {props.passkeys.length > 0 && (
            <ul className="passkey-list" aria-label="Ключи доступа">
              {props.passkeys.map((p) => (
                <PasskeyItem key={p.id} passkey={p} {...props} />
              ))}
            </ul>
          )}
          <Said error={props.error} notice={props.notice} />
          <AddForm {...props} />
        </>
      )}
    </section>
  );
}

function Said({ error, notice }: { error: string | null; notice: string | null }) {
  return (
    <div aria-live="polite">
      {error ? (
        <p className="inline-error" role="alert">
          {error}
        </p>
      ) : (
        notice && (
          <p className="inline-note" role="status">
            {notice}
          </p>
        )
      )}
    </div>
  );
}

function PasskeyItem(props: PasskeysViewProps & { passkey: Passkey }) {
  const p = props.passkey;
  // Which form the row shows is the section's actor's (sending the form closes it there); what is typed stays here.
  const mode = props.rowMode(p.id);
  const [value, setValue] = useState('');
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'rename') props.onRename(p.id, value.trim());
    else props.onRemove(p.id, value);
    setValue('');
  };
  return (
    <li className="passkey" data-testid="passkey">
      <div className="passkey-name">{p.name}</div>
      <div className="form-hint">
        Добавлен {when(p.createdAt)}
        {p.lastUsedAt ? ` · Последний вход ${when(p.lastUsedAt)}` : ' · Ещё не использовался'}
      </div>
      {mode === 'view' ? (
        <div className="form-actions">
          <button
            type="button"
            className="button"
            disabled={props.busy}
            aria-label={`Переименовать ключ «${p.name}»`}
            onClick={() => {
              setValue(p.name);
              props.onOpenRename(p.id);
            }}
          >
            Переименовать
          </button>
          <button
            type="button"
            className="button danger"
            disabled={props.busy}
            aria-label={`Удалить ключ «${p.name}»`}
            onClick={() => props.onOpenRemove(p.id)}
          >
            Удалить
          </button>
        </div>
      ) : (
        <form
          className="passkey-change"
          onSubmit={submit}
          aria-label={mode === 'rename' ? `Переименование ключа «${p.name}»` : `Удаление ключа «${p.name}»`}
        >
          <div className="field">
            <label htmlFor={id}>{mode === 'rename' ? 'Новое название' : 'Пароль для удаления'}</label>
            <input
              id={id}
              type={mode === 'rename' ? 'text' : 'password'}
              autoComplete={mode === 'rename' ? 'off' : 'current-password'}
              maxLength={mode === 'rename' ? 64 : undefined}
              required
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </div>
          <div className="form-actions">
            <button
              type="submit"
              className={mode === 'rename' ? 'button primary' : 'button danger'}
              disabled={props.busy}
            >
              {mode === 'rename' ? 'Сохранить' : 'Удалить ключ'}
            </button>
            <button type="button" className="button" onClick={() => props.onCloseForm(p.id)}>
              Отмена
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

function AddForm(props: PasskeysViewProps) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const ids = { name: useId(), password: useId() };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onAdd(name.trim() || 'Ключ доступа', password);
    setPassword('');
  };
  return (
    <form className="passkey-add" onSubmit={submit} aria-label="Новый ключ доступа">
      <div className="field">
        <label htmlFor={ids.name}>Название ключа</label>
        <input
          id={ids.name}
          autoComplete="off"
          maxLength={64}
          placeholder="Например, «Ноутбук» или «Телефон»"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.password}>Пароль аккаунта</label>
        <input
          id={ids.password}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <button type="submit" className="button primary" disabled={props.busy}>
        {props.adding ? 'Ждём ключ…' : 'Добавить ключ доступа'}
      </button>
    </form>
  );
}
