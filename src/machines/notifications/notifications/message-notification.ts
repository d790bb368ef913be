// What a system notification about a message says: the sender's name («Sender — Group» in a group), a preview,
// the avatar. Built from the message and its conversation as the chats list knows it.
import type { Conversation, Message } from '../../../contract/entities';
import { fromInGroup, messagePreview, type NotificationPayload } from '../../../contract/notification';

export type MessageNotification = Extract<NotificationPayload, { kind: 'message' }>;

export function messageNotification(conversation: Conversation | null, m: Message): MessageNotification {
  const sender = conversation?.participants.find((p) => p.user.id === m.senderId)?.user;
  const name = sender?.displayName ?? 'Беседа';
  const avatar = sender?.avatarUrl && !sender.avatarUrl.startsWith('emoji:') ? sender.avatarUrl : null;
  const group = conversation?.isGroup === true;
  return {
    kind: 'message',
    conversationId: m.conversationId,
    title: group ? fromInGroup(name, conversation?.title ?? '') : name,
    preview: messagePreview(m.type, m.content),
    count: 1,
    icon: group ? null : avatar,
  };
}
