// Users, messages and conversations for the chats machines' and views' tests.
import type { Conversation, ConversationEntry, Message, PublicUser } from '../../src/contract/entities';

const BASE = Date.parse('2025-03-01T10:00:00.000Z');

/** A message at `minute` minutes after a fixed moment (ids do not decide the order, times do). */
export function message(id: string, senderId: string, minute: number, over: Partial<Message> = {}): Message {
  return {
    id,
    conversationId: 'c1',
    senderId,
    type: 'TEXT',
    content: `text ${id}`,
    createdAt: new Date(BASE + minute * 60_000).toISOString(),
    deletedAt: null,
    editedAt: null,
    clientMessageId: null,
    replyTo: null,
    attachments: [],
    receipts: [],
    reactions: [],
    ...over,
  };
}

export function person(id: string, displayName: string, over: Partial<PublicUser> = {}): PublicUser {
  return {
    id,
    username: displayName.toLowerCase(),
    displayName,
    avatarUrl: null,
    status: 'OFFLINE',
    lastSeenAt: null,
    eblid: '1234',
    bio: null,
    ...over,
  };
}

export function conversation(id: string, users: PublicUser[], over: Partial<Conversation> = {}): Conversation {
  return {
    id,
    title: null,
    isGroup: false,
    avatarUrl: null,
    participants: users.map((user) => ({ user, role: 'MEMBER' as const })),
    messages: [],
    ...over,
  };
}

export const entry = (c: Conversation, unreadCount = 0): ConversationEntry => ({ conversation: c, unreadCount });
