// A group member's card (docs/behaviour.md §10.26): picture, name, @username and presence, with «Написать» and
// «Добавить в друзья» («Заявка отправлена» while a request waits, nothing for a friend); the server's refusal in its
// words. And «Написать» on a member's row in «Информация». Each host calls the hook; MemberCardView renders props.
import type { PublicUser } from '../../contract/entities';
import { Modal } from '../shared/Modal';
import { UserAvatar } from '../shared/UserAvatar';
import { type MemberCardView as CardView, useMemberCard } from './useMemberCard';
import './contacts.css';

export interface MemberCardProps {
  user: PublicUser;
  onClose(): void;
}

export function MemberCardView(props: CardView) {
  return (
    <Modal title="Участник" onClose={props.onClose} className="member-card">
      <div className="member-card-body" data-testid="member-card">
        <UserAvatar user={props.user} size={72} presence />
        <p className="member-card-name">{props.name}</p>
        <p className="member-card-username">@{props.username}</p>
        {props.customStatus && (
          <p className="member-card-custom" data-testid="member-card-custom-status">
            {props.customStatus}
          </p>
        )}
        <p className={`member-card-presence${props.online ? ' online' : ''}`}>{props.presence}</p>
        {props.error && (
          <p className="form-error" role="alert">
            {props.error}
          </p>
        )}
        <div className="member-card-actions">
          <button type="button" className="button" disabled={props.busy} onClick={props.onWrite}>
            Написать
          </button>
          {props.relation === 'none' && (
            <button type="button" className="button ghost" disabled={props.busy} onClick={props.onBefriend}>
              Добавить в друзья
            </button>
          )}
          {props.relation === 'outgoing' && <p className="member-card-note">Заявка отправлена</p>}
          {props.relation === 'incoming' && <p className="member-card-note">Заявка в друзья ждёт вашего ответа</p>}
        </div>
      </div>
    </Modal>
  );
}

/** The card while it is open: its actor lives as long as this is mounted. */
export function MemberCard({ user, onClose }: MemberCardProps) {
  return <MemberCardView {...useMemberCard('memberCard', user, onClose)} />;
}

/** A row's «Написать» being done: the chat opens, or the refusal shows under the row until dismissed. */
export function MemberWrite({ user, onClose }: MemberCardProps) {
  const view = useMemberCard('memberWrite', user, onClose);
  if (!view.error) return null;
  return (
    <p className="form-error member-write-error" role="alert">
      {view.error}{' '}
      <button type="button" className="button ghost" onClick={view.onClose}>
        Понятно
      </button>
    </p>
  );
}
