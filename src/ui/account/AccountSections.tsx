// Settings' account sections (docs/accounts.md): «Устройства» — every sign-in with its browser, system and
// activity, «Это устройство» marked, «Завершить» and «Завершить все другие» — «Сменить пароль», «Экспорт данных» and
// «Удалить аккаунт».
import { type FormEvent, useId, useState } from 'react';
import { DELETE_CONFIRMATION } from '../../machines/account/accountDeletion/accountDeletion.protocol';
import { PASSWORD_CHANGED, type PasswordFields } from '../../machines/account/passwordChange/passwordChange.protocol';
import { type AccountDeletionViewProps, useAccountDeletion } from './useAccountDeletion';
import { type DataExportViewProps, useDataExport } from './useDataExport';
import { type DevicesViewProps, useDevices } from './useDevices';
import { type PasswordViewProps, usePasswordChange } from './usePasswordChange';
import './account.css';

export function DevicesSection() {
  return <DevicesView {...useDevices()} />;
}

export function PasswordSection() {
  return <PasswordView {...usePasswordChange()} />;
}

export function DataExportSection() {
  return <DataExportView {...useDataExport()} />;
}

/** «1,2 МБ», «850 КБ». */
const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toLocaleString('ru-RU', { maximumFractionDigits: 1 })} МБ`
    : `${Math.max(1, Math.round(bytes / 1024))} КБ`;

export function DataExportView(props: DataExportViewProps) {
  const { current } = props;
  const percent = Math.round((current?.progress ?? 0) * 100);
  const ready = current?.status === 'ready' && current.downloadUrl ? current : null;
  return (
    <section className="card form settings-export" aria-labelledby="settings-export" aria-busy={props.busy}>
      <h2 className="form-title" id="settings-export">
        Экспорт данных
      </h2>
      <p className="form-hint">
        Архив ZIP с профилем, друзьями, всеми вашими беседами и файлами, которые вы загрузили. Он хранится 24 часа и
        доступен только вам.
      </p>
      <div aria-live="polite">
        {props.building && (
          <div className="export-progress">
            <progress max={100} value={percent} aria-label="Подготовка архива" />
            <span role="status">Архив готовится… {percent} %</span>
          </div>
        )}
        {ready && (
          <p className="inline-note" role="status">
            Архив готов{ready.size !== null ? ` (${sizeText(ready.size)})` : ''}. Доступен до {when(ready.expiresAt)}.
          </p>
        )}
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
      </div>
      <div className="form-actions">
        {ready && (
          <a className="button primary" href={ready.downloadUrl ?? undefined} download>
            Скачать архив
          </a>
        )}
        {!props.building && (
          <button type="button" className="button" disabled={props.busy} onClick={props.onStart}>
            {current ? 'Подготовить новый архив' : 'Подготовить архив'}
          </button>
        )}
      </div>
    </section>
  );
}

export function AccountDeletionSection() {
  return <AccountDeletionView {...useAccountDeletion()} />;
}

export function AccountDeletionView(props: AccountDeletionViewProps) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const ids = { password: useId(), confirmation: useId(), note: useId() };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onDelete(password, confirmation);
  };
  return (
    <form className="card form settings-delete" onSubmit={submit} aria-labelledby="settings-delete">
      <h2 className="form-title" id="settings-delete">
        Удалить аккаунт
      </h2>
      <p className="form-hint" id={ids.note}>
        Все ваши устройства выйдут из аккаунта, друзья и запросы удалятся. Сообщения останутся у собеседников под именем
        «Удалённый аккаунт».
      </p>
      <div className="field">
        <label htmlFor={ids.password}>Пароль</label>
        <input
          id={ids.password}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.confirmation}>Введите {DELETE_CONFIRMATION}, чтобы подтвердить</label>
        <input
          id={ids.confirmation}
          autoComplete="off"
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
        />
      </div>
      <div aria-live="polite">
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
      </div>
      <button
        type="submit"
        className="button danger"
        aria-describedby={ids.note}
        disabled={props.busy || confirmation.trim().toUpperCase() !== DELETE_CONFIRMATION || !password}
      >
        Удалить аккаунт
      </button>
    </form>
  );
}

const when = (iso: string) =>
  new Date(iso).toLocaleString('ru-RU', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

export function DevicesView(props: DevicesViewProps) {
  const others = props.devices.filter((d) => !d.current);
  return (
    <section className="card form settings-devices" aria-labelledby="settings-devices" aria-busy={props.busy}>
      <h2 className="form-title" id="settings-devices">
        Устройства
      </h2>
      <ul className="device-list">
        {props.devices.map((d) => (
          <li key={d.id} className="device" data-testid="device">
            <div className="device-name">
              {[d.browser, d.os].filter(Boolean).join(', ') || 'Неизвестное устройство'}
              {d.current && <span className="device-current"> · Это устройство</span>}
            </div>
            <div className="form-hint">
              Вход: {when(d.createdAt)}
              {d.passkey && ` с ключом доступа «${d.passkey}»`} · Активность: {when(d.lastActiveAt)}
            </div>
            {!d.current && (
              <button
                type="button"
                className="button"
                disabled={props.busy}
                aria-label={`Завершить сеанс: ${[d.browser, d.os].filter(Boolean).join(', ') || 'неизвестное устройство'}`}
                onClick={() => props.onEnd(d.id)}
              >
                Завершить
              </button>
            )}
          </li>
        ))}
      </ul>
      <div aria-live="polite">
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
      </div>
      {others.length > 0 && (
        <button type="button" className="button" disabled={props.busy} onClick={props.onEndOthers}>
          Завершить все другие
        </button>
      )}
    </section>
  );
}

const EMPTY: PasswordFields = { currentPassword: '', newPassword: '', repeat: '' };

export function PasswordView(props: PasswordViewProps) {
  const [fields, setFields] = useState<PasswordFields>(EMPTY);
  const ids = { current: useId(), next: useId(), repeat: useId() };
  const set = (key: keyof PasswordFields, value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    if (props.changed) props.onEdit();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit(fields);
  };
  return (
    <form className="card form settings-password" onSubmit={submit} aria-labelledby="settings-password">
      <h2 className="form-title" id="settings-password">
        Сменить пароль
      </h2>
      <div className="field">
        <label htmlFor={ids.current}>Текущий пароль</label>
        <input
          id={ids.current}
          type="password"
          autoComplete="current-password"
          value={fields.currentPassword}
          onChange={(e) => set('currentPassword', e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.next}>Новый пароль</label>
        <input
          id={ids.next}
          type="password"
          autoComplete="new-password"
          value={fields.newPassword}
          onChange={(e) => set('newPassword', e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.repeat}>Новый пароль ещё раз</label>
        <input
          id={ids.repeat}
          type="password"
          autoComplete="new-password"
          value={fields.repeat}
          onChange={(e) => set('repeat', e.target.value)}
        />
      </div>
      <div aria-live="polite">
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
        {props.changed && !props.error && (
          <p className="inline-note" role="status">
            {PASSWORD_CHANGED}
          </p>
        )}
      </div>
      <button type="submit" className="button primary" disabled={props.busy}>
        Сменить пароль
      </button>
    </form>
  );
}
