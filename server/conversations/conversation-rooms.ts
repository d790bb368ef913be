// Conversation socket events: a socket joins a conversation's room (members only) to get its messages as
// message:new (realtime/hub.ts, toConversation), leaves it, and sends typing notices to the other members
// that have it open (realtime/typing-relay.ts).
import fp from 'fastify-plugin';
import { conversationRoom } from '../realtime/hub';
import { requireMember } from './membership';

/** conversation:join and conversation:leave take the bare id or {conversationId}. */
const idOf = (ref: string | { conversationId: string }) => (typeof ref === 'string' ? ref : ref.conversationId);

export const conversationRooms = fp(
  async (app) => {
    const { db, realtime } = app;
    realtime.onClientEvent('conversation:join', async (ref, client) => {
      await requireMember(db, idOf(ref), client.userId);
      await client.join(conversationRoom(idOf(ref)));
    });
    realtime.onClientEvent('conversation:leave', (ref, client) => client.leave(conversationRoom(idOf(ref))));
    realtime.onClientEvent('conversation:typing', async ({ conversationId, typing }, { userId }) => {
      await requireMember(db, conversationId, userId);
      // Throttled, and only to sockets showing the conversation: the typing indicator lives in the open
      // conversation (src/machines/conversation/typing), so the other members' sockets have nothing to do with it.
      realtime.relayTyping(conversationId, userId, typing);
    });
  },
  {
    name: 'conversation-rooms',
    encapsulate: true,
    decorators: { fastify: ['db', 'realtime'] },
    dependencies: ['realtime'],
  },
);
