// The chat list's tile, computed from a conversation entry (the list's first paint needs only this; the message
// rows and the header are in view-model.ts, which loads with the conversation's pane).
import type { ConversationEntry } from '../../contract/entities';
import {
  type AvatarView,
  avatarColour,
  avatarFace,
  conversationTitle,
  directPeer,
  displayName,
  isGroupConversation,
  isMuted,
  otherParticipants,
  presenceDot,
  presenceText,
  SAVED_TITLE,
  unreadText,
} from '../../contract/format';
import { tileLine, tileMark, tileTime } from './tile-line';

export interface ChatTileView {
  id: string;
  title: string;
  avatar: AvatarView;
  /** '{n} непрочитанных', the participants of a group, or the peer's presence. */
  subtitle: string;
  unread: number;
  /** An unread message mentions the user: «@» beside the count (even in a muted chat). */
  mentioned?: boolean;
  active: boolean;
  /** The latest message in words («Фото», «Файл: name», «Голосовое сообщение 0:12», a call, a group's change). */
  preview?: string | null;
  /** «Вы» or the sender's name before the preview in a group. */
  previewSender?: string | null;
  /** The conversation's unsent text, shown as «Черновик: …» instead of the preview. */
  draft?: string | null;
  /** The latest message's time: hh:mm today, «вчера», the date otherwise. */
  time?: string | null;
  /** One's own latest message: read by someone else, or only sent. */
  mark?: 'read' | 'sent' | null;
  /** One's own settings: «Без звука» (grey badge), pinned, in «Архив»; a group (its «Удалить чат» leaves it). */
  muted?: boolean;
  pinned?: boolean;
  archived?: boolean;
  /** «Пометить как непрочитанное»: a dot without a number until the chat is opened. */
  markedUnread?: boolean;
  isGroup?: boolean;
  /** A secret chat (a lock beside its title). */
  secret?: boolean;
  /** A group whose call is on (a phone beside its title). */
  call?: boolean;
  /** «Избранное», one's chat with oneself: first in the list, never deleted (docs/behaviour.md §10.31). */
  saved?: boolean;
  /** Its latest message is ENCRYPTED: its id and ciphertext, which this device reads for the preview. */
  encrypted?: {
    conversationId: string;
    messageId: string;
    ciphertext: string;
    createdAt: string;
    senderId: string;
  } | null;
}

export function avatarOf(entry: ConversationEntry, me: string | null): AvatarView {
  const c = entry.conversation;
  // «Избранное» wears a bookmark (docs/behaviour.md §10.31).
  if (c.saved) return { face: avatarFace('emoji:🔖', SAVED_TITLE), colour: avatarColour(c.id), presence: null };
  const peer = directPeer(c, me);
  const title = conversationTitle(c, me);
  if (peer)
    return {
      face: avatarFace(peer.avatarUrl, title),
      colour: avatarColour(peer.id),
      presence: presenceDot(peer.status),
    };
  return { face: avatarFace(c.avatarUrl ?? null, title), colour: avatarColour(c.id), presence: null };
}

export const groupNames = (entry: ConversationEntry, me: string | null) =>
  otherParticipants(entry.conversation, me).map(displayName).join(', ');

export function chatTile(
  entry: ConversationEntry,
  me: string | null,
  selectedId: string | null,
  now: number,
  draft: string | null = null,
): ChatTileView {
  const c = entry.conversation;
  const latest = c.messages[0];
  const line = tileLine(
    latest,
    me,
    isGroupConversation(c),
    c.participants.map((p) => p.user),
  );
  const peer = directPeer(c, me);
  const subtitle =
    entry.unreadCount > 0
      ? unreadText(entry.unreadCount)
      : isGroupConversation(c)
        ? groupNames(entry, me)
        : peer
          ? presenceText(peer, now)
          : '';
  return {
    id: c.id,
    title: conversationTitle(c, me),
    avatar: avatarOf(entry, me),
    subtitle,
    unread: entry.unreadCount,
    mentioned: (entry.unreadMentions ?? 0) > 0 && entry.unreadCount > 0,
    active: c.id === selectedId,
    preview: line?.text ?? null,
    previewSender: line?.sender ?? null,
    draft: draft?.trim() ? draft.replace(/\s+/g, ' ').trim() : null,
    time: tileTime(latest?.createdAt, now),
    mark: tileMark(latest, me),
    muted: isMuted(entry.settings, now),
    pinned: entry.settings?.pinned ?? false,
    archived: entry.settings?.archived ?? false,
    ...(entry.settings?.markedUnread ? { markedUnread: true } : {}),
    isGroup: isGroupConversation(c),
    ...(c.secret ? { secret: true } : {}),
    ...(c.saved ? { saved: true } : {}),
    call: !!entry.groupCall,
    ...(latest?.type === 'ENCRYPTED'
      ? {
          encrypted: {
            conversationId: c.id,
            messageId: latest.id,
            ciphertext: latest.content,
            createdAt: latest.createdAt,
            senderId: latest.senderId,
          },
        }
      : {}),
  };
}
