// The profile dialog 'Профиль' (docs/behaviour.md §2): the avatar, the EBLID, one's own status (§10.44), the avatar
// editor and 'Закрыть'.
import { customStatusLine } from '../../contract/custom-status';
import type { User } from '../../contract/entities';
import { Modal } from '../shared/Modal';
import { UserAvatar } from '../shared/UserAvatar';
import { AvatarEditor } from './AvatarEditor';
import { untilText } from './CustomStatusSection';
import type { AvatarEditorView } from './useAvatarEditor';
import './profile.css';

export interface ProfileDialogProps {
  me: Pick<User, 'id' | 'displayName' | 'avatarUrl' | 'eblid' | 'username'> & Partial<Pick<User, 'customStatus'>>;
  avatar: AvatarEditorView;
  onClose: () => void;
}

export function ProfileDialog({ me, avatar, onClose }: ProfileDialogProps) {
  return (
    <Modal title="Профиль" onClose={onClose} className="profile-modal">
      <div className="profile-head">
        <UserAvatar user={me} size={88} />
        <div className="person-text">
          <span className="profile-name">{me.displayName}</span>
          <span className="person-sub">@{me.username}</span>
          {me.customStatus && (
            <span className="person-sub" data-testid="profile-custom-status">
              {customStatusLine(me.customStatus)}
              {me.customStatus.expiresAt ? ` · ${untilText(me.customStatus.expiresAt)}` : ''}
            </span>
          )}
          <span className="eblid-line">
            EBLID <strong className="eblid">{me.eblid}</strong>
          </span>
        </div>
      </div>
      <AvatarEditor {...avatar} />
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          Закрыть
        </button>
      </div>
    </Modal>
  );
}
