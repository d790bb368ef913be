// Read receipts: per message (POST /messages/receipts) or a whole conversation at once. Unread counts
// follow from them (messages from others without the reader's receipt). Only new receipts are announced.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { membersFor } from '../conversations/membership';
import type { Database } from '../db/database';
import { type Authenticate, contractRoute } from '../http/contract-route';
import { notFound } from '../http/errors';

type Status = 'READ';

/** Stores READ receipts for messages not yet read by userId; returns the ids that were new. */
async function storeReceipts(db: Database, userId: string, conversationId: string, ids: string[], status: Status) {
  if (ids.length === 0) return [];
  const already = await db
    .selectFrom('receipts')
    .select('message_id')
    .where('user_id', '=', userId)
    .where('message_id', 'in', ids)
    .execute();
  const have = new Set(already.map((r) => r.message_id));
  const fresh = ids.filter((id) => !have.has(id));
  if (fresh.length === 0) return [];
  const now = new Date().toISOString();
  await db
    .insertInto('receipts')
    .values(fresh.map((message_id) => ({ message_id, user_id: userId, conversation_id: conversationId, status, created_at: now })))
    .onConflict((oc) => oc.columns(['message_id', 'user_id']).doNothing())
    .execute();
  return fresh;
}

export function receiptsRoutes(app: FastifyInstance, ctx: AppContext, authenticate: Authenticate): void {
  const { db } = ctx;

  async function announce(userId: string, conversationId: string, members: string[], messageIds: string[]) {
    if (messageIds.length === 0) return;
    ctx.realtime.toUsers(members, 'receipts:update', { conversationId, userId, messageIds, status: 'READ' });
  }

  contractRoute(app, authenticate, 'receipts', async ({ userId, body }) => {
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
      const fresh = await storeReceipts(db, userId, conversationId, messageIds, body.status);
      if (fresh.length) await announce(userId, conversationId, await membersFor(db, conversationId, userId), fresh);
    }
    return { ok: true as const };
  });

  contractRoute(app, authenticate, 'markRead', async ({ userId, body }) => {
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
      fresh.push(...(await storeReceipts(db, userId, body.conversationId, ids.slice(i, i + 500), 'READ')));
    }
    await announce(userId, body.conversationId, members, fresh);
    return { ok: true as const };
  });
}
