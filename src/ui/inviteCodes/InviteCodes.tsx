// Invite codes (docs/behaviour.md §10.20), shown in «Администрирование» → «Регистрация» («Коды приглашения», every
// code) and in Settings («Приглашения», the member's own): «Создать код» with an optional expiry, use limit and note;
// each code with its state, «Копировать ссылку» and «Отозвать».
import { useId } from 'react';
import type { RegistrationInvite } from '../../machines/inviteCodes/inviteCodes/inviteCodes.protocol';
import { type InviteCodesViewProps, useInviteCodes } from './useInviteCodes';
import '../shared/admin-parts.css';
import './invite-codes.css';

/** «Коды приглашения» in «Администрирование». */
export function InviteCodesSection() {
  return <InviteCodesView {...useInviteCodes()} title="Коды приглашения" showAuthor />;
}

/** «Приглашения» in Settings, only while the caller may invite. */
export function SettingsInvitesSection() {
  const { shown, ...props } = useInviteCodes();
  return shown ? <InviteCodesView {...props} title="Приглашения" /> : null;
}

export const INVITE_STATE_TEXT: Record<RegistrationInvite['state'], string> = {
  active: 'Действует',
  expired: 'Истёк',
  used: 'Использован',
  revoked: 'Отозван',
};

/** «24.11.2026, 10:00». */
const when = (iso: string) =>
  new Date(iso).toLocaleString('ru-RU', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/** A whole number from a field, or null when it is empty. */
const numberOrNull = (v: string) => (v.trim() === '' ? null : Number(v));

export function InviteCodesView(props: InviteCodesViewProps) {
  const ids = { title: useId(), hours: useId(), uses: useId(), note: useId() };
  return (
    <section className="card admin-section invite-codes" aria-labelledby={ids.title} aria-busy={props.busy}>
      <h2 className="form-title" id={ids.title}>
        {props.title}
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
      {props.error && (
        <div role="alert">
          <p className="inline-error">{props.error}</p>
          <button type="button" className="button ghost" onClick={props.onReload}>
            Повторить
          </button>
        </div>
      )}
      {props.invites.length === 0 ? (
        <p className="empty-note">Кодов пока нет</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">Код</th>
                <th scope="col">Заметка</th>
                <th scope="col">Использований</th>
                <th scope="col">Действует до</th>
                <th scope="col">Состояние</th>
                {props.showAuthor && <th scope="col">Создал</th>}
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
                  {props.showAuthor && <td>{i.createdBy?.displayName ?? 'из консоли'}</td>}
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
