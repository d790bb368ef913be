// The «Участники» fieldset of the dialogs that make a chat (group, secret): the friends to tick, each row a checkbox
// reading 'Выбрано' or 'Нажмите, чтобы выбрать', or 'Сначала добавьте друзей' when there are none.
import { type AvatarUser, UserAvatar } from './UserAvatar';

export interface MemberPickerProps {
  friends: AvatarUser[];
  /** The ids ticked. */
  selected: string[];
  onToggle(userId: string): void;
}

export function MemberPicker(props: MemberPickerProps) {
  return (
    <fieldset className="pick-fieldset">
      <legend className="section-title">Участники</legend>
      {props.friends.length === 0 ? (
        <p className="muted">Сначала добавьте друзей</p>
      ) : (
        <ul className="pick-list">
          {props.friends.map((f) => {
            const ticked = props.selected.includes(f.id);
            return (
              <li key={f.id}>
                <label className={`pick-row ${ticked ? 'ticked' : ''}`}>
                  <input type="checkbox" checked={ticked} onChange={() => props.onToggle(f.id)} />
                  <UserAvatar user={f} size={32} />
                  <span className="person-text">
                    <span className="person-name">{f.displayName}</span>
                    <span className="person-sub">{ticked ? 'Выбрано' : 'Нажмите, чтобы выбрать'}</span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
