// Membership checks shared by routes and the gateway. A non-member learns nothing about a conversation:
// it gets the same 404 as for one that does not exist.
import type { Database } from '../db/database';
import { notFound } from '../http/errors';

export const CONVERSATION_NOT_FOUND = 'Беседа не найдена';

export async function isMember(db: Database, conversationId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('conversation_members')
    .select('user_id')
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(row);
}

export async function requireMember(db: Database, conversationId: string, userId: string): Promise<void> {
  if (!(await isMember(db, conversationId, userId))) throw notFound(CONVERSATION_NOT_FOUND);
}

export async function memberIds(db: Database, conversationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('conversation_members')
    .select('user_id')
    .where('conversation_id', '=', conversationId)
    .execute();
  return rows.map((r) => r.user_id);
}

/** All members, after checking that `userId` is one of them. */
export async function membersFor(db: Database, conversationId: string, userId: string): Promise<string[]> {
  const ids = await memberIds(db, conversationId);
  if (!ids.includes(userId)) throw notFound(CONVERSATION_NOT_FOUND);
  return ids;
}
