// «Регистрация» (docs/behaviour.md §10.20): who may register («Открытая», «По приглашениям», «Закрыта»), «Участники
// могут приглашать», «Хранить сообщения» (days, empty for ever), and the invite codes: «Создать код» with an optional
// expiry, use limit and note; each code with its state, «Копировать ссылку» and «Отозвать».
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { RegistrationMode } from '../../../contract/administration';
import type { ServerSettings } from '../machines/adminRegistration/adminRegistration.protocol';
import { INVITE_STATE_TEXT, when } from './texts';
import { type AdminRegistrationView, useAdminRegistration } from './useAdminRegistration';

export function RegistrationTab() {
  return <RegistrationView {...useAdminRegistration()} />;
}

const MODES: { value: RegistrationMode; label: string; hint: string }[] = [
  { value: 'open', label: 'Открытая', hint: 'Зарегистрироваться может любой, кто откроет сайт.' },
  { value: 'invites', label: 'По приглашениям', hint: 'Нужен код приглашения.' },
  { value: 'closed', label: 'Закрыта', hint: 'Новые аккаунты создаёт только администратор.' },
];

/** A whole number from a field, or null when it is empty. */
const numberOrNull = (v: string) => (v.trim() === '' ? null : Number(v));

export function RegistrationView(props: AdminRegistrationView) {
  return (
    <>
      <SettingsForm {...props} />
      <InviteCodes {...props} />
    </>
  );
}

function SettingsForm(props: AdminRegistrationView) {
  const [mode, setMode] = useState<RegistrationMode>('open');
  const [membersCanInvite, setMembersCanInvite] = useState(false);
  const [retention, setRetention] = useState('');
  const ids = { members: useId(), retention: useId(), retentionHint: useId() };
  // The form starts from the server's settings and again whenever they change (saved, reloaded).
  useEffect(() => {
    if (!props.settings) return;
    setMode(props.settings.registration);
    setMembersCanInvite(props.settings.membersCanInvite);
    setRetention(props.settings.retentionDays === null ? '' : String(props.settings.retentionDays));
  }, [props.settings]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const change: Partial<ServerSettings> = {
      registration: mode,
      membersCanInvite,
      retentionDays: numberOrNull(retention),
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
          onChange={(e) => setMembersCanInvite(e.target.checked)}
        />
        Участники могут приглашать
      </label>
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
        <button type="submit" className="button primary" disabled={props.busy || !props.settings}>
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

function InviteCodes(props: AdminRegistrationView) {
  const ids = { hours: useId(), uses: useId(), note: useId() };
  return (
    <section className="card admin-section" aria-labelledby="admin-invites-title">
      <h2 className="form-title" id="admin-invites-title">
        Коды приглашения
      </h2>
      <form
        className="admin-invite-new"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          props.onCreate({
            expiresInHours: numberOrNull(String(data.get('hours') ?? '')),
            maxUses: numberOrNull(String(data.get('uses') ?? '')),
            note: String(data.get('note') ?? ''),
          });
          form.reset();
        }}
      >
        <div className="field">
          <label htmlFor={ids.hours}>Срок действия, часов</label>
          <input id={ids.hours} name="hours" type="number" min={1} max={8760} step={1} placeholder="без срока" />
        </div>
        <div className="field">
          <label htmlFor={ids.uses}>Сколько раз</label>
          <input id={ids.uses} name="uses" type="number" min={1} max={1000} step={1} placeholder="без ограничений" />
        </div>
        <div className="field">
          <label htmlFor={ids.note}>Заметка</label>
          <input id={ids.note} name="note" maxLength={100} />
        </div>
        <button type="submit" className="button primary" disabled={props.busy}>
          Создать код
        </button>
      </form>
      {props.invites.length === 0 ? (
        <p className="empty-note">Кодов пока нет</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Коды приглашения</caption>
            <thead>
              <tr>
                <th scope="col">Код</th>
                <th scope="col">Заметка</th>
                <th scope="col">Использований</th>
                <th scope="col">Действует до</th>
                <th scope="col">Состояние</th>
                <th scope="col">Создал</th>
                <th scope="col">Действия</th>
              </tr>
            </thead>
            <tbody>
              {props.invites.map((i) => (
                <tr key={i.code} data-testid="registration-invite">
                  <th scope="row">
                    <code className="admin-code">{i.code}</code>
                  </th>
                  <td>{i.note ?? '—'}</td>
                  <td>{i.maxUses === null ? i.uses : `${i.uses} из ${i.maxUses}`}</td>
                  <td>{i.expiresAt ? when(i.expiresAt) : 'без срока'}</td>
                  <td>{INVITE_STATE_TEXT[i.state]}</td>
                  <td>{i.createdBy?.displayName ?? 'из консоли'}</td>
                  <td>
                    {i.state === 'active' && (
                      <div className="admin-actions">
                        <button type="button" className="button ghost" onClick={() => props.onCopy(i.code)}>
                          {props.copiedCode === i.code ? 'Скопировано' : 'Копировать ссылку'}
                        </button>
                        <button
                          type="button"
                          className="button ghost"
                          disabled={props.busy}
                          onClick={() => props.onRevoke(i.code)}
                        >
                          Отозвать
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
