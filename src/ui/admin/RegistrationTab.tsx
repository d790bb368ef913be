// «Регистрация» (docs/behaviour.md §10.20): who may register («Открытая», «По приглашениям», «Закрыта»), «Участники
// могут приглашать», «Каталог участников», «Гостевые ссылки на звонки» (§10.40), «Двухэтапная проверка обязательна»
// (§10.7a), «Хранить сообщения» (days, empty
// for ever); below it «Коды приглашения», the view the inviteCodes feature shares with Settings' «Приглашения».
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { RegistrationMode, TwoFactorRequirement } from '../../contract/administration';
import type { ServerSettings } from '../../machines/admin/adminRegistration/adminRegistration.protocol';
import { InviteCodesSection } from '../inviteCodes/index';
import { type AdminRegistrationView, useAdminRegistration } from './useAdminRegistration';

export function RegistrationTab() {
  return (
    <>
      <RegistrationView {...useAdminRegistration()} />
      <InviteCodesSection />
    </>
  );
}

const MODES: { value: RegistrationMode; label: string; hint: string }[] = [
  { value: 'open', label: 'Открытая', hint: 'Зарегистрироваться может любой, кто откроет сайт.' },
  { value: 'invites', label: 'По приглашениям', hint: 'Нужен код приглашения.' },
  { value: 'closed', label: 'Закрыта', hint: 'Новые аккаунты создаёт только администратор.' },
];

/** A whole number from a field, or null when it is empty. */
const numberOrNull = (v: string) => (v.trim() === '' ? null : Number(v));

export function RegistrationView(props: AdminRegistrationView) {
  const [mode, setMode] = useState<RegistrationMode>('open');
  const [membersCanInvite, setMembersCanInvite] = useState(false);
  const [retention, setRetention] = useState('');
  const [directory, setDirectory] = useState(false);
  const [guestLinks, setGuestLinks] = useState(true);
  const [passwordSignIn, setPasswordSignIn] = useState(true);
  const [twoFactorRequired, setTwoFactorRequired] = useState<TwoFactorRequirement>('nobody');
  // Until the server's settings are here the controls wait: a choice made on the defaults would be overwritten by them.
  const waiting = !props.settings;
  const ids = {
    members: useId(),
    retention: useId(),
    retentionHint: useId(),
    directory: useId(),
    directoryHint: useId(),
    guests: useId(),
    guestsHint: useId(),
    passwords: useId(),
    passwordsHint: useId(),
    twoFactor: useId(),
    twoFactorHint: useId(),
  };
  // The form starts from the server's settings and again whenever they change (saved, reloaded).
  useEffect(() => {
    if (!props.settings) return;
    setMode(props.settings.registration);
    setMembersCanInvite(props.settings.membersCanInvite);
    setRetention(props.settings.retentionDays === null ? '' : String(props.settings.retentionDays));
    setDirectory(props.settings.directory);
    setGuestLinks(props.settings.guestLinks);
    setPasswordSignIn(props.settings.passwordSignIn);
    setTwoFactorRequired(props.settings.twoFactorRequired);
  }, [props.settings]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const change: Partial<ServerSettings> = {
      registration: mode,
      membersCanInvite,
      retentionDays: numberOrNull(retention),
      directory,
      guestLinks,
      passwordSignIn,
      twoFactorRequired,
    };
    props.onSave(change);
  };
  return (
    <form
      className="card form admin-section"
      onSubmit={submit}
      aria-labelledby="admin-registration-title"
      aria-busy={props.busy}
    >
      <h2 className="form-title" id="admin-registration-title">
        Регистрация
      </h2>
      {!props.settings && props.error && (
        <div role="alert">
          <p className="inline-error">{props.error}</p>
          <button type="button" className="button ghost" onClick={props.onReload}>
            Повторить
          </button>
        </div>
      )}
      <fieldset className="admin-modes">
        <legend>Кто может зарегистрироваться</legend>
        {MODES.map((m) => (
          <label key={m.value} className="admin-mode">
            <input
              type="radio"
              name="registration"
              value={m.value}
              checked={mode === m.value}
              disabled={waiting}
              onChange={() => setMode(m.value)}
            />
            <span>
              <strong>{m.label}</strong>
              <small className="hint">{m.hint}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="admin-check" htmlFor={ids.members}>
        <input
          id={ids.members}
          type="checkbox"
          checked={membersCanInvite}
          disabled={waiting}
          onChange={(e) => setMembersCanInvite(e.target.checked)}
        />
        Участники могут приглашать
      </label>
      <div>
        <label className="admin-check" htmlFor={ids.directory}>
          <input
            id={ids.directory}
            type="checkbox"
            aria-describedby={ids.directoryHint}
            checked={directory}
            disabled={waiting}
            onChange={(e) => setDirectory(e.target.checked)}
          />
          Каталог участников
        </label>
        <small className="hint" id={ids.directoryHint}>
          Участники видят друг друга в «Люди», могут создать группу с кем угодно и найти открытые группы
        </small>
      </div>
      <div>
        <label className="admin-check" htmlFor={ids.guests}>
          <input
            id={ids.guests}
            type="checkbox"
            aria-describedby={ids.guestsHint}
            checked={guestLinks}
            disabled={waiting}
            onChange={(e) => setGuestLinks(e.target.checked)}
          />
          Гостевые ссылки на звонки
        </label>
        <small className="hint" id={ids.guestsHint}>
          Участники зовут в звонок людей без аккаунта по ссылке. Выключено — ссылки не работают, новые не создаются
        </small>
      </div>
      <div>
        <label className="admin-check" htmlFor={ids.passwords}>
          <input
            id={ids.passwords}
            type="checkbox"
            aria-describedby={ids.passwordsHint}
            checked={passwordSignIn}
            disabled={waiting}
            onChange={(e) => setPasswordSignIn(e.target.checked)}
          />
          Вход по паролю
        </label>
        <small className="hint" id={ids.passwordsHint}>
          Выключено — участники входят только через организацию, пароль остаётся у администраторов. Действует, если
          настроен вход через организацию (OIDC_ISSUER)
        </small>
      </div>
      <div className="field">
        <label htmlFor={ids.twoFactor}>Двухэтапная проверка обязательна</label>
        <select
          id={ids.twoFactor}
          aria-describedby={ids.twoFactorHint}
          value={twoFactorRequired}
          disabled={waiting}
          onChange={(e) => setTwoFactorRequired(e.target.value as TwoFactorRequirement)}
        >
          <option value="nobody">Никому</option>
          <option value="admins">Администраторам</option>
          <option value="everyone">Всем</option>
        </select>
        <small className="hint" id={ids.twoFactorHint}>
          Тех, у кого её нет, после входа сразу отправят её включить
        </small>
      </div>
      <div className="field">
        <label htmlFor={ids.retention}>Хранить сообщения, дней</label>
        <input
          id={ids.retention}
          type="number"
          min={1}
          max={36500}
          step={1}
          inputMode="numeric"
          aria-describedby={ids.retentionHint}
          value={retention}
          disabled={waiting}
          onChange={(e) => setRetention(e.target.value)}
        />
        <small className="hint" id={ids.retentionHint}>
          Пусто — хранить всегда
        </small>
      </div>
      {props.settings && props.error && (
        <p className="inline-error" role="alert">
          {props.error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={props.busy || waiting}>
          Сохранить
        </button>
        {props.saved && (
          <span className="inline-note" role="status">
            Сохранено
          </span>
        )}
      </div>
    </form>
  );
}
