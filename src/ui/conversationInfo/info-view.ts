// Pure rules of «Информация»: role labels, and which actions one's role
// offers on another member (tested in info-view.test.ts).
import { customStatusLine } from '../../contract/custom-status';
import type { ConversationEntry, ParticipantRole, PublicUser } from '../../contract/entities';
import {
  type AvatarView,
  avatarColour,
  avatarFace,
  conversationTitle,
  directPeer,
  displayName,
  isGroupConversation,
  membersText,
  presenceDot,
  presenceText,
} from '../../contract/format';
import type { GroupAction } from '../../machines/conversationInfo/conversationInfo/conversationInfo.protocol';

export const ROLE_LABEL: Record<ParticipantRole, string | null> = {
  OWNER: 'владелец',
  ADMIN: 'администратор',
  MEMBER: null,
};

export interface MemberAction {
  label: string;
  action: GroupAction;
}

/** What `mine` may do to a member with `theirs` (never to oneself): the owner everything, an admin remove members. */
export function memberActions(mine: ParticipantRole, theirs: ParticipantRole, userId: string): MemberAction[] {
  if (theirs === 'OWNER') return [];
  const remove = { label: 'Удалить из группы', action: { kind: 'remove', userId } } as const;
  if (mine === 'ADMIN') return theirs === 'MEMBER' ? [remove] : [];
  if (mine !== 'OWNER') return [];
  return [
    theirs === 'ADMIN'
      ? { label: 'Разжаловать', action: { kind: 'role', userId, role: 'MEMBER' } }
      : { label: 'Сделать администратором', action: { kind: 'role', userId, role: 'ADMIN' } },
    { label: 'Передать права владельца', action: { kind: 'role', userId, role: 'OWNER' } },
    remove,
  ];
}

export interface MemberView {
  id: string;
  name: string;
  me: boolean;
  presence: string;
  /** Their status of their own («🌴 В отпуске»), '' when none: shown apart from presence. */
  customStatus: string;
  online: boolean;
  role: string | null;
  avatar: AvatarView;
  actions: MemberAction[];
}

export interface InfoView {
  isGroup: boolean;
  title: string;
  avatar: AvatarView;
  /** Group: the member count; direct chat: the peer's presence. */
  subtitle: string;
  /** Direct chats: the other person's profile. */
  peer: {
    name: string;
    eblid: string;
    bio: string | null;
    presence: string;
    customStatus: string;
    online: boolean;
  } | null;
  members: MemberView[];
  canManage: boolean;
  myRole: ParticipantRole | null;
  /** «Открытая группа» (docs/behaviour.md §10.25); a secret chat never is, nor offers it. */
  open: boolean;
  secret: boolean;
}

const personAvatar = (u: PublicUser): AvatarView => ({
  face: avatarFace(u.avatarUrl, displayName(u)),
  colour: avatarColour(u.id),
  presence: presenceDot(u.status),
});

export function infoView(entry: ConversationEntry, me: string, now: number): InfoView {
  const c = entry.conversation;
  const title = conversationTitle(c, me);
  const group = isGroupConversation(c);
  const myRole = c.participants.find((p) => p.user.id === me)?.role ?? null;
  const members = c.participants.map(
    (p): MemberView => ({
      id: p.user.id,
      name: displayName(p.user),
      me: p.user.id === me,
      presence: presenceText(p.user, now),
      customStatus: customStatusLine(p.user.customStatus),
      online: p.user.status === 'ONLINE',
      role: ROLE_LABEL[p.role],
      avatar: personAvatar(p.user),
      actions: group && myRole && p.user.id !== me ? memberActions(myRole, p.role, p.user.id) : [],
    }),
  );
  const other = group ? null : directPeer(c, me);
  return {
    isGroup: group,
    title,
    avatar: other
      ? personAvatar(other)
      : { face: avatarFace(c.avatarUrl ?? null, title), colour: avatarColour(c.id), presence: null },
    // A deactivated account says so instead of its presence (docs/administration.md).
    subtitle: other
      ? other.deactivated
        ? 'Аккаунт отключён'
        : presenceText(other, now)
      : membersText(c.participants.length),
    peer: other
      ? {
          name: displayName(other),
          eblid: other.eblid,
          bio: other.bio,
          presence: presenceText(other, now),
          customStatus: customStatusLine(other.customStatus),
          online: other.status === 'ONLINE',
        }
      : null,
    members,
    canManage: group && (myRole === 'OWNER' || myRole === 'ADMIN'),
    myRole,
    open: c.open === true,
    secret: c.secret === true,
  };
}
