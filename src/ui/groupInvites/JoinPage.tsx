// /join/<code>: the group an invite link leads to, with «Вступить» («Открыть» for a member); a signed-out visitor signs
// in first and comes back here (the route guard remembers the address).
import { useParams } from 'react-router-dom';
import { avatarColour, avatarFace, membersText } from '../../contract/format';
import { ChatAvatar } from '../shared/ChatAvatar';
import { type JoinGroupView, useJoinGroup } from './useJoinGroup';
import './group-invites.css';

export function JoinPage() {
  const { code = '' } = useParams();
  const view = useJoinGroup(code);
  // Joined: the chats actor opened the group and the navigation actor moves the address to it.
  if (view.joined) return null;
  return <JoinPageView {...view} />;
}

export function JoinPageView(props: JoinGroupView) {
  const p = props.preview;
  const title = p?.title ?? 'Группа';
  return (
    <section className="page join-page" aria-labelledby="join-title">
      <div className="card join-card">
        {p ? (
          <>
            <ChatAvatar
              avatar={{ face: avatarFace(p.avatarUrl, title), colour: avatarColour(p.conversationId), presence: null }}
              size={96}
            />
            <h1 id="join-title">{title}</h1>
            <p className="form-hint">{membersText(p.memberCount)}</p>
            {props.error && (
              <p className="inline-error" role="alert">
                {props.error}
              </p>
            )}
            <button type="button" className="button primary" disabled={props.busy} onClick={props.onJoin}>
              {p.member ? 'Открыть' : 'Вступить'}
            </button>
          </>
        ) : (
          <>
            <h1 id="join-title">Ссылка-приглашение</h1>
            {props.error ? (
              <p className={props.gone ? 'form-hint' : 'inline-error'} role="alert">
                {props.error}
              </p>
            ) : (
              <p className="form-hint" role="status">
                Загружаем…
              </p>
            )}
            {props.error && !props.gone && (
              <button type="button" className="button" onClick={props.onRetry}>
                Повторить
              </button>
            )}
          </>
        )}
      </div>
    </section>
  );
}
