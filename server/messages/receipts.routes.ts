// Read receipts: per message (POST /messages/receipts) or a whole conversation at once. Unread counts
// follow from them (messages from others without the reader's receipt). Only new receipts are announced.
import fp from 'fastify-plugin';
import type { AppContext } from '../context';
import { membersFor } from '../conversations/membership';
import { contractRoute } from '../http/contract-route';
import { notFound } from '../http/errors';

type Status = 'READ';

/**
 * Stores READ receipts of userId for those of `ids` that are visible messages of someone else in the
 * conversation; returns the ids that were new. The condition is part of the INSERT, so a receipt never
 * outlives a deletion that raced with it (on PostgreSQL the messages are read FOR SHARE, so a concurrent
 * deletion waits or is seen): the unread count (conversation-view.ts) relies on receipts existing only for
 * visible messages of others.
 */
async function storeReceipts(ctx: AppContext, userId: string, conversationId: string, ids: string[], status: Status) {
  if (ids.length === 0) return [];
  const now = new Date().toISOString();
  const rows = await ctx.db
    .insertInto('receipts')
    .columns(['message_id', 'user_id', 'conversation_id', 'status', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('messages')
        .select((x) => ['id', x.val(userId).as('user_id'), 'conversation_id', x.val(status).as('status'), x.val(now).as('created_at')])
        .where('id', 'in', ids)
        .where('conversation_id', '=', conversationId)
        .where('sender_id', '!=', userId)
        .where('deleted_at', 'is', null)
        .$if(ctx.dialect === 'postgres', (q) => q.forShare()),
    )
    .onConflict((oc) => oc.columns(['message_id', 'user_id']).doNothing())
    .returning('message_id')
    .execute();
  const fresh = new Set(rows.map((r) => r.message_id));
  return ids.filter((id) => fresh.has(id));
}

/** Read receipts. */
export const receiptsRoutes = fp(
  async (app) => {
    const { ctx } = app;
    const { db } = ctx;

    async function announce(userId: string, conversationId: string, members: readonly string[], messageIds: string[]) {
      if (messageIds.length === 0) return;
      // The reader's unread count and, when it is the latest message, everyone's ✓.
      ctx.lists.changed(members);
      ctx.realtime.toUsers(members, 'receipts:update', { conversationId, userId, messageIds, status: 'READ' });
    }

    contractRoute(app, 'receipts', async ({ userId, body }) => {
      const ids = [...new Set(body.messageIds)];
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('conversation_members as cm', (j) =>
          j.onRef('cm.conversation_id', '=', 'm.conversation_id').on('cm.user_id', '=', userId),
        )
        .select(['m.id', 'm.conversation_id', 'm.sender_id', 'm.deleted_at'])
        .where('m.id', 'in', ids)
        .execute();
      // Unknown messages and other people's conversations are refused as a whole; nothing is stored.
      if (rows.length !== ids.length) throw notFound('Сообщение не найдено');
      // Own and deleted messages need no receipt (a deletion may race with the reader's batch).
      const byConversation = new Map<string, string[]>();
      for (const r of rows) {
        if (r.sender_id === userId || r.deleted_at) continue;
        byConversation.set(r.conversation_id, [...(byConversation.get(r.conversation_id) ?? []), r.id]);
      }
      for (const [conversationId, messageIds] of byConversation) {
        const fresh = await storeReceipts(ctx, userId, conversationId, messageIds, body.status);
        if (fresh.length) await announce(userId, conversationId, await membersFor(db, conversationId, userId), fresh);
      }
      return { ok: true as const };
    });

    contractRoute(app, 'markRead', async ({ userId, body }) => {
      const members = await membersFor(db, body.conversationId, userId);
      const unread = await db
        .selectFrom('messages as m')
        .leftJoin('receipts as r', (j) => j.onRef('r.message_id', '=', 'm.id').on('r.user_id', '=', userId))
        .select('m.id')
        .where('m.conversation_id', '=', body.conversationId)
        .where('m.sender_id', '!=', userId)
        .where('m.deleted_at', 'is', null)
        .where('r.message_id', 'is', null)
        .orderBy('m.seq')
        .execute();
      const ids = unread.map((r) => r.id);
      // Chunks keep the statement under SQLite's variable limit for very long unread histories.
      const fresh: string[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        fresh.push(...(await storeReceipts(ctx, userId, body.conversationId, ids.slice(i, i + 500), 'READ')));
      }
      await announce(userId, body.conversationId, members, fresh);
      return { ok: true as const };
    });
  },
  { name: 'receipts-routes', encapsulate: true, decorators: { fastify: ['ctx', 'authenticate'] }, dependencies: ['context'] },
);
