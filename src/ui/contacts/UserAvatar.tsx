// A user's round avatar: the uploaded picture, an emoji avatar, or initials on a colour from the id's hash
// (docs/behaviour.md §9), optionally with the presence dot.
import type { PresenceStatus } from '../../contract/entities';
import { avatarColour, avatarFace, presenceDot } from '../chats/format';

export interface AvatarUser {
  id: string;
  displayName: string;
  avatarUrl: string | null;
  status?: PresenceStatus;
}

export function UserAvatar({ user, size = 40, presence = false }: { user: AvatarUser; size?: number; presence?: boolean }) {
  const face = avatarFace(user.avatarUrl, user.displayName);
  return (
    <span className="user-avatar" style={{ width: size, height: size, fontSize: Math.round(size * 0.4) }} aria-hidden="true">
      {face.kind === 'image' ? (
        <img src={face.url} alt="" width={size} height={size} />
      ) : (
        <span className="user-avatar-face" style={{ background: face.kind === 'initials' ? avatarColour(user.id) : undefined }}>
          {face.kind === 'emoji' ? face.emoji : face.text}
        </span>
      )}
      {presence && user.status && <i className={`presence-dot presence-${presenceDot(user.status)}`} />}
    </span>
  );
}
