// A person's round avatar for the contacts feature, drawn by the chats page's ChatAvatar (uploaded picture,
// emoji avatar, or initials on a colour from the id's hash), optionally with the presence dot.
import type { PresenceStatus } from '../../contract/entities';
import { ChatAvatar } from './ChatAvatar';
import { avatarColour, avatarFace, presenceDot } from '../../contract/format';
// ChatAvatar's styles live with the chats page, which may not have loaded yet (/contacts opened directly).

export interface AvatarUser {
  id: string;
  displayName: string;
  avatarUrl: string | null;
  status?: PresenceStatus;
}

export function UserAvatar({
  user,
  size = 40,
  presence = false,
}: {
  user: AvatarUser;
  size?: number;
  presence?: boolean;
}) {
  const avatar = {
    face: avatarFace(user.avatarUrl, user.displayName),
    colour: avatarColour(user.id),
    presence: presence && user.status ? presenceDot(user.status) : null,
  };
  return <ChatAvatar avatar={avatar} size={size} />;
}
