// «Ссылки на звонки» (docs/behaviour.md §10.40) in a conversation's «Информация» and beside a named room of /calls:
// the room's live guest links with who made them and until when, «Копировать», «Отозвать» and «Создать ссылку»;
// for a group, «Кто впускает гостей». Loaded after the first paint (deferred.ts).
import { useId } from 'react';
import { formatDate, formatTime } from '../../contract/format';
import { LINK_TERMS } from '../../machines/guests/guestLinks/guestLinks.protocol';
import { type GuestLinksView, type GuestLinksWho, useGuestLinks } from './useGuestLinks';
import './call-links.css';

/** The section with its own actor (alive while it is shown; its room is read once: key it by room). */
export function CallLinksSection(props: GuestLinksWho & { room: string }) {
  return <CallLinks {...useGuestLinks(props.room, props)} />;
}

const until = (iso: string) => {
  const d = new Date(iso);
  return `до ${formatDate(d)} в ${formatTime(d)}`;
};

export const CALL_LINKS_OFF = 'Гостевые ссылки на звонки отключены администратором';

export function CallLinks(props: GuestLinksView) {
  const ids = { title: useId(), term: useId(), admission: useId() };
  return (
    <section className="call-links" aria-labelledby={ids.title} aria-busy={props.busy}>
      <h4 className="call-links-title" id={ids.title}>
        Ссылки на звонки
      </h4>
      <p className="call-links-note">По такой ссылке в звонок заходят без аккаунта, если их впустят.</p>
      {!props.enabled && <p className="call-links-note">{CALL_LINKS_OFF}</p>}
      {props.error && (
        <p className="call-links-error" role="alert">
          {props.error}
        </p>
      )}
      {props.links.length > 0 ? (
        <ul className="call-links-list">
          {props.links.map((l) => (
            <li key={l.code} data-testid="call-link">
              <code className="call-links-url">{l.url}</code>
              <span className="call-links-meta">
                {l.by} · {until(l.expiresAt)}
              </span>
              <span className="call-links-actions">
                <button
                  type="button"
                  className="button ghost"
                  aria-label={l.copied ? undefined : `Копировать ссылку ${until(l.expiresAt)}`}
                  onClick={() => props.onCopy(l.code)}
                >
                  {l.copied ? 'Скопировано' : 'Копировать'}
                </button>
                {l.canRevoke && (
                  <button
                    type="button"
                    className="button ghost"
                    aria-label={`Отозвать ссылку ${until(l.expiresAt)}`}
                    disabled={props.busy}
                    onClick={() => props.onRevoke(l.code)}
                  >
                    Отозвать
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        !props.busy && <p className="call-links-note">Действующих ссылок нет</p>
      )}
      {props.enabled && (
        <form
          className="call-links-new"
          onSubmit={(e) => {
            e.preventDefault();
            props.onCreate(Number(new FormData(e.currentTarget).get('hours')));
          }}
        >
          <label htmlFor={ids.term}>Срок</label>
          <select id={ids.term} name="hours" defaultValue={24}>
            {LINK_TERMS.map((t) => (
              <option key={t.hours} value={t.hours}>
                {t.label}
              </option>
            ))}
          </select>
          <button type="submit" className="button ghost" disabled={props.busy}>
            Создать ссылку
          </button>
        </form>
      )}
      {props.admission === 'choice' && (
        <fieldset className="call-links-admission" aria-describedby={ids.admission}>
          <legend>Кто впускает гостей</legend>
          <label>
            <input
              type="radio"
              name="guest-admission"
              checked={!props.adminsOnly}
              disabled={props.busy}
              onChange={() => props.onAdmission(false)}
            />{' '}
            Любой участник
          </label>
          <label>
            <input
              type="radio"
              name="guest-admission"
              checked={props.adminsOnly}
              disabled={props.busy}
              onChange={() => props.onAdmission(true)}
            />{' '}
            Только владелец и администраторы
          </label>
          <p className="call-links-note" id={ids.admission}>
            Они видят, кто просится в звонок, и решают, впустить ли
          </p>
        </fieldset>
      )}
      {props.admission === 'note' && props.adminsOnly && (
        <p className="call-links-note">Гостей впускают только владелец и администраторы</p>
      )}
    </section>
  );
}
