// «Ссылка-приглашение» in a group's «Информация» (owner and admins): the working links with «Копировать» and
// «Отозвать», and «Создать ссылку».
import { formatDate } from '../../contract/format';
import { type GroupInvitesView, useGroupInvites } from './useGroupInvites';
import './invite-links.css';

const EXPIRY = [
  { label: 'без срока', ms: null },
  { label: '1 час', ms: 3_600_000 },
  { label: '1 день', ms: 86_400_000 },
  { label: '7 дней', ms: 7 * 86_400_000 },
];
const USES = [
  { label: 'без ограничений', n: null },
  { label: '1', n: 1 },
  { label: '10', n: 10 },
  { label: '100', n: 100 },
];

/** The section with its own actor (alive while it is shown). */
export function InviteLinksSection(props: { conversationId: string }) {
  return <InviteLinks {...useGroupInvites(props.conversationId)} />;
}

export function InviteLinks(props: GroupInvitesView) {
  return (
    <section className="info-invites" aria-labelledby="info-invites-title" aria-busy={props.busy}>
      <h4 className="info-section" id="info-invites-title">
        Ссылка-приглашение
      </h4>
      {props.error && (
        <p className="info-error" role="alert">
          {props.error}
        </p>
      )}
      <ul className="info-invite-list">
        {props.links.map((l) => (
          <li key={l.code} data-testid="invite-link">
            <code className="info-invite-url">{l.url}</code>
            <span className="info-invite-meta">
              {l.maxUses ? `вступили ${l.uses} из ${l.maxUses}` : `вступили: ${l.uses}`}
              {l.expiresAt && ` · до ${formatDate(new Date(l.expiresAt))}`}
            </span>
            <span className="info-invite-actions">
              <button type="button" className="button ghost" onClick={() => props.onCopy(l.code)}>
                {l.copied ? 'Скопировано' : 'Копировать'}
              </button>
              <button
                type="button"
                className="button ghost"
                disabled={props.busy}
                onClick={() => props.onRevoke(l.code)}
              >
                Отозвать
              </button>
            </span>
          </li>
        ))}
      </ul>
      <form
        className="info-invite-new"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          const expires = String(data.get('expires') ?? '');
          const uses = String(data.get('uses') ?? '');
          props.onCreate(expires ? Number(expires) : null, uses ? Number(uses) : null);
        }}
      >
        <label>
          Срок{' '}
          <select name="expires" defaultValue="">
            {EXPIRY.map((o) => (
              <option key={o.label} value={o.ms ?? ''}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Вступлений{' '}
          <select name="uses" defaultValue="">
            {USES.map((o) => (
              <option key={o.label} value={o.n ?? ''}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button ghost" disabled={props.busy}>
          Создать ссылку
        </button>
      </form>
    </section>
  );
}
