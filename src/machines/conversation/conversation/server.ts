// The open conversation's link to the server, as actor logic the conversation actor invokes: the server events it
// hears (mapped to its own events) and its membership of the conversation's socket room.
import { fromCallback } from 'xstate';
import { listenToServer } from '../../realtime/index';
import { systemActor } from '../../shared/system';
import type { ConversationEvent } from './conversation.protocol';

export const conversationServerEvents = listenToServer<ConversationEvent>(
  {
    'message:new': (p) => ({ type: 'conversation.messageArrived', message: p.message }),
    'message:notify': (p) => ({ type: 'conversation.messageArrived', message: p.message }),
    'message:deleted': (p) => ({
      type: 'conversation.messageDeleted',
      conversationId: p.conversationId,
      messageId: p.messageId,
      ...(p.threadRootId && p.thread ? { thread: { rootId: p.threadRootId, summary: p.thread } } : {}),
    }),
    'message:edited': (p) => ({
      type: 'conversation.messageEdited',
      conversationId: p.conversationId,
      messageId: p.messageId,
      content: p.content,
      editedAt: p.editedAt,
      ...(p.mentions ? { mentions: p.mentions } : {}),
      ...(p.entities ? { entities: p.entities } : {}),
    }),
    'message:preview': (p) => ({
      type: 'conversation.preview',
      conversationId: p.conversationId,
      messageId: p.messageId,
      preview: p.preview,
    }),
    'message:hidden': (p) => ({
      type: 'conversation.messagesHidden',
      conversationId: p.conversationId,
      messageIds: p.messageIds,
      hidden: p.hidden,
    }),
    'conversation:pins': (p) => ({ type: 'conversation.pins', conversationId: p.conversationId, pins: p.pins }),
    'reactions:update': (p) => ({
      type: 'conversation.reactions',
      conversationId: p.conversationId,
      messageId: p.messageId,
      reactions: p.reactions,
    }),
    // A thread reply is not in the timeline: only its root's summary changes.
    'thread:reply': (p) =>
      p.message.threadRootId
        ? {
            type: 'conversation.thread',
            conversationId: p.conversationId,
            rootId: p.message.threadRootId,
            thread: p.thread,
          }
        : null,
    'poll:updated': (p) => ({
      type: 'conversation.poll',
      conversationId: p.conversationId,
      messageId: p.messageId,
      poll: p.poll,
    }),
    'receipts:update': (p) => ({
      type: 'conversation.receipts',
      conversationId: p.conversationId,
      userId: p.userId,
      messageIds: p.messageIds,
    }),
  },
  { onConnected: () => ({ type: 'conversation.reconnected' }) },
);

/**
 * Membership of the conversation's socket room while this actor lives: join now and after every
 * reconnection (the server forgets rooms with the socket), leave when stopped.
 */
export const conversationRoom = fromCallback<{ type: string }, { conversationId: string }>(({ input, system }) => {
  const realtime = systemActor(system, 'realtime');
  if (!realtime) return;
  const payload = { conversationId: input.conversationId };
  const join = () => realtime.send({ type: 'realtime.emit', name: 'conversation:join', payload });
  join();
  const sub = realtime.on('realtime.connected', join);
  return () => {
    sub.unsubscribe();
    realtime.send({ type: 'realtime.emit', name: 'conversation:leave', payload });
  };
});
