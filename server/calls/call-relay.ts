// Call signalling between a conversation's members over their sockets: an invitation rings the other members'
// tabs (refused at once when none is online), and accepting, declining and hanging up reach them too. Accepting
// or declining also stops the user's own other tabs ringing. The media itself goes through LiveKit
// (livekit/token.routes.ts). Each call is also logged as an entry of the conversation (call-log.ts).
import fp from 'fastify-plugin';
import { otherMembers } from '../conversations/membership';
import type { Database } from '../db/database';
import { HttpError, notFound } from '../http/errors';
import { CALL_BLOCKED } from '../users/blocks';
import { createCallLog } from './call-log';

export async function caller(db: Database, userId: string) {
  const u = await db
    .selectFrom('users')
    .select(['id', 'display_name', 'avatar_url'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!u) throw notFound('Пользователь не найден');
  return { id: u.id, name: u.display_name, avatarUrl: u.avatar_url };
}

export const callRelay = fp(
  async (app) => {
    const { blocks, clock, db, lists, realtime, push } = app;
    const log = createCallLog({ db, clock, lists, realtime });
    app.addHook('onClose', async () => log.close());
    realtime.onClientEvent('call:invite', async ({ conversationId, video }, { userId }) => {
      const to = await otherMembers(db, conversationId, userId);
      // A blocked pair does not ring each other (a group call still rings the others).
      if (to.length === 1 && blocks.between(userId, to[0])) throw new HttpError(403, CALL_BLOCKED);
      // Nobody to ring: the caller is told at once instead of waiting for an answer that cannot come. A callee
      // whose browser subscribed to Web Push can still be rung with the tab closed.
      if (!to.some((id) => realtime.isOnline(id)) && !(await push.anySubscribed(to))) {
        throw new HttpError(409, to.length > 1 ? 'Никого из участников беседы нет в сети' : 'Собеседник не в сети');
      }
      const from = await caller(db, userId);
      await log.started(conversationId, userId, video);
      realtime.toUsers(to, 'call:incoming', { conversationId, from, video });
      push.call(conversationId, to, from, video);
    });
    realtime.onClientEvent('call:accept', async ({ conversationId, video }, client) => {
      const to = await otherMembers(db, conversationId, client.userId);
      const payload = { conversationId, from: await caller(db, client.userId), video };
      await log.answered(conversationId, client.userId);
      realtime.toUsers(to, 'call:accepted', payload);
      client.toOwnOtherSockets('call:accepted', payload);
    });
    realtime.onClientEvent('call:decline', async ({ conversationId }, client) => {
      const to = await otherMembers(db, conversationId, client.userId);
      const payload = { conversationId, from: await caller(db, client.userId) };
      realtime.toUsers(to, 'call:declined', payload);
      client.toOwnOtherSockets('call:declined', payload);
      await log.ended(conversationId, client.userId, 'decline');
    });
    realtime.onClientEvent('call:end', async ({ conversationId }, { userId }) => {
      const to = await otherMembers(db, conversationId, userId);
      realtime.toUsers(to, 'call:ended', { conversationId, from: await caller(db, userId) });
      await log.ended(conversationId, userId, 'end');
    });
  },
  {
    name: 'call-relay',
    encapsulate: true,
    decorators: { fastify: ['blocks', 'clock', 'db', 'lists', 'realtime', 'push'] },
    dependencies: ['base', 'realtime', 'lists', 'push', 'blocks'],
  },
);
