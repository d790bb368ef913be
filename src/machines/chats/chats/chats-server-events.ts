// What the chats list hears besides its view: the server's socket events, and the composer's deliveries (its
// emitted `composer.delivered`), as the chats actor's events (listeners of their own, so the machine reads as its
// states).
import { type EventObject, fromCallback } from 'xstate';
import { listenToServer } from '../../realtime/index';
import { systemActor } from '../../shared/system';
import type { ChatsEvent } from './chats.protocol';

/** Own messages the server has, as the composer emits them. */
export const composerDeliveries = fromCallback<EventObject, void, ChatsEvent>(({ system, sendBack }) => {
  // A thread reply is no chat's last message (the server announces none either).
  const sub = systemActor(system, 'composer')?.on('composer.delivered', (e) => {
    if (!e.message.threadRootId) sendBack(e);
  });
  return () => sub?.unsubscribe();
});

export const chatsServerEvents = listenToServer<ChatsEvent>(
  {
    // A socket gets one of them per message (message:new once it joined the conversation, else message:notify);
    // a secret chat's edit or reaction (`control`) is no news: neither the preview nor an unread message.
    'message:new': (p) => (p.message.control ? null : { type: 'chats.messageArrived', message: p.message }),
    'message:notify': (p) => (p.message.control ? null : { type: 'chats.messageArrived', message: p.message }),
    'message:deleted': (p) => ({
      type: 'chats.messageDeleted',
      conversationId: p.conversationId,
      messageId: p.messageId,
    }),
    'message:edited': (p) => ({
      type: 'chats.messageEdited',
      conversationId: p.conversationId,
      messageId: p.messageId,
      content: p.content,
      editedAt: p.editedAt,
    }),
    'receipts:update': (p) => ({
      type: 'chats.receipts',
      conversationId: p.conversationId,
      userId: p.userId,
      messageIds: p.messageIds,
    }),
    'presence:update': (p) => ({
      type: 'chats.presence',
      userId: p.userId,
      status: p.status,
      lastSeenAt: p.lastSeenAt,
      at: new Date().toISOString(),
    }),
    'profile:update': (p) => ({
      type: 'chats.profile',
      userId: p.userId,
      avatarUrl: p.avatarUrl,
      displayName: p.displayName,
      // «Аккаунт отключён» in «Информация» (docs/behaviour.md §10.20).
      ...(p.deactivated !== undefined ? { deactivated: p.deactivated } : {}),
      // A status of one's own, set or cleared (docs/behaviour.md §10.44).
      ...(p.customStatus !== undefined ? { customStatus: p.customStatus } : {}),
    }),
    'conversations:new': (p) => ({ type: 'chats.conversationAdded', conversation: p.conversation }),
    'conversation:updated': (p) => ({ type: 'chats.conversationUpdated', conversation: p.conversation }),
    'conversation:removed': (p) => ({ type: 'chats.conversationRemoved', conversationId: p.conversationId }),
    'groupCall:state': (p) => ({ type: 'chats.groupCall', ...p }),
    'conversation:settings': (p) => ({
      type: 'chats.settings',
      conversationId: p.conversationId,
      settings: p.settings,
    }),
  },
  { onConnected: () => ({ type: 'chats.reconnected' }) },
);
