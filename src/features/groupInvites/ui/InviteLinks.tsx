// «Ссылка-приглашение» in a group's «Информация» (owner and admins): the working links with «Копировать» and
// «Отозвать», and «Создать ссылку».
import { formatDate } from '../../../shared/format';
import { type GroupInvitesView, useGroupInvites } from './useGroupInvites';

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
      <button type="button" className="button ghost" disabled={props.busy} onClick={props.onCreate}>
        Создать ссылку
      </button>
    </section>
  );
}
