// Read receipts: per message (POST /messages/receipts) or a whole conversation at once. Both move the reader's
// read cursor (read-cursors.ts), so unread counts are the visible messages of others after it. Only what became
// read is announced, and only to those who show it (receipt-announcer.ts).
import fp from 'fastify-plugin';
import type { Database } from '../db/database';
import { membersFor } from '../conversations/membership';
import { preparedQuery } from '../db/prepared';
import { contractRoute } from '../http/contract-route';
import { notFound } from '../http/errors';
import { createCursorWriter, latestSeq, type ReadMessage } from './read-cursors';
import { createReceiptAnnouncer } from './receipt-announcer';

/** The messages named, if the reader is a member of their conversations. */
const namedMessages = (db: Database, userId: string, ids: string[]) =>
  db
    .selectFrom('messages as m')
    .innerJoin('conversation_members as cm', (j) => j.onRef('cm.conversation_id', '=', 'm.conversation_id').on('cm.user_id', '=', userId))
    .select(['m.id', 'm.seq', 'm.conversation_id', 'm.sender_id', 'm.deleted_at'])
    .where('m.id', 'in', ids);
/** The common batch, one message (a reader keeping up with a conversation), compiled once. */
const oneNamedMessage = preparedQuery(2, (db, userId, id) => namedMessages(db, userId, [id]));

/** Read receipts. */
export const receiptsRoutes = fp(
  async (app) => {
    const { ctx } = app;
    const { db } = ctx;
    const announcer = createReceiptAnnouncer(ctx.realtime);
    const cursors = createCursorWriter(db);
    app.addHook('onClose', async () => announcer.close());

    function announce(userId: string, conversationId: string, members: readonly string[], read: ReadMessage[], socketId?: string) {
      if (read.length === 0) return;
      // The reader's unread count, and the receipts of the latest message every member's list carries.
      ctx.lists.changed(members, conversationId);
      announcer.read(conversationId, userId, read, socketId);
    }

    contractRoute(app, 'receipts', async ({ userId, body }) => {
      const ids = [...new Set(body.messageIds)];
      const rows = ids.length === 1 ? (await oneNamedMessage(db, userId, ids[0] as string)).rows : await namedMessages(db, userId, ids).execute();
      // Unknown messages and other people's conversations are refused as a whole; nothing is stored.
      if (rows.length !== ids.length) throw notFound('Сообщение не найдено');
      // Own and deleted messages need no receipt (a deletion may race with the reader's batch); the cursor goes
      // to the newest of the others' messages named.
      const upTo = new Map<string, number>();
      for (const r of rows) {
        if (r.sender_id === userId || r.deleted_at) continue;
        upTo.set(r.conversation_id, Math.max(upTo.get(r.conversation_id) ?? 0, Number(r.seq)));
      }
      for (const [conversationId, seq] of upTo) {
        const read = await cursors.advance(userId, conversationId, seq);
        if (read.length) announce(userId, conversationId, await membersFor(db, conversationId, userId), read, body.socketId);
      }
      return { ok: true as const };
    });

    contractRoute(app, 'markRead', async ({ userId, body }) => {
      const members = await membersFor(db, body.conversationId, userId);
      const read = await cursors.advance(userId, body.conversationId, await latestSeq(db, body.conversationId));
      announce(userId, body.conversationId, members, read, body.socketId);
      return { ok: true as const };
    });
  },
  { name: 'receipts-routes', encapsulate: true, decorators: { fastify: ['ctx', 'authenticate'] }, dependencies: ['context'] },
);
