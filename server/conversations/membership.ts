// Membership checks shared by routes and socket events. A non-member learns nothing about a conversation:
// it gets the same 404 as for one that does not exist.
//
// Members are fixed when a conversation is created (no route adds or removes one), so a conversation's member
// list is remembered per database handle after the first read and every send, typing event or call
// signal checks membership without a query. Every server process can cache independently because the lists
// never change; a route that ever changes membership must drop the conversation from this cache (and tell the
// other processes).
import type { Database } from '../db/database';
import { notFound } from '../http/errors';

export const CONVERSATION_NOT_FOUND = 'Беседа не найдена';

/** Conversations whose members are kept; the least recently used go first. */
const CACHE_SIZE = 20_000;
const caches = new WeakMap<Database, Map<string, readonly string[]>>();

function cacheOf(db: Database): Map<string, readonly string[]> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

function remember(cache: Map<string, readonly string[]>, conversationId: string, userIds: readonly string[]): void {
  cache.delete(conversationId);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(conversationId, userIds);
}

/**
 * Records the members of a conversation that has just been created (its transaction committed). They all
 * joined at the same instant, so their order is that of their ids, as the database gives it.
 */
export function rememberMembers(db: Database, conversationId: string, userIds: readonly string[]): void {
  remember(cacheOf(db), conversationId, [...new Set(userIds)].sort());
}

/** Members of each conversation in joining order (then by id); conversations that do not exist are left out. */
export async function membersOfMany(
  db: Database,
  conversationIds: readonly string[],
): Promise<Map<string, readonly string[]>> {
  const cache = cacheOf(db);
  const out = new Map<string, readonly string[]>();
  const missing: string[] = [];
  for (const id of conversationIds) {
    const known = cache.get(id);
    if (known) out.set(id, known);
    else missing.push(id);
  }
  // Chunks keep each statement under SQLite's variable limit.
  for (let i = 0; i < missing.length; i += 500) {
    const rows = await db
      .selectFrom('conversation_members')
      .select(['conversation_id', 'user_id'])
      .where('conversation_id', 'in', missing.slice(i, i + 500))
      .orderBy('conversation_id')
      .orderBy('joined_at')
      .orderBy('user_id')
      .execute();
    for (const r of rows) {
      const list = out.get(r.conversation_id) as string[] | undefined;
      if (list) list.push(r.user_id);
      else out.set(r.conversation_id, [r.user_id]);
    }
  }
  // An unknown id is not remembered: ids are random, and a miss must not fill the cache.
  for (const id of missing) {
    const ids = out.get(id);
    if (ids) remember(cache, id, ids);
  }
  return out;
}

/** Every member of the conversation, in joining order; empty when it does not exist. */
export async function memberIds(db: Database, conversationId: string): Promise<readonly string[]> {
  const cache = cacheOf(db);
  const known = cache.get(conversationId);
  if (known) {
    // Most recently used last, so the eviction above drops cold conversations.
    remember(cache, conversationId, known);
    return known;
  }
  return (await membersOfMany(db, [conversationId])).get(conversationId) ?? [];
}

export async function isMember(db: Database, conversationId: string, userId: string): Promise<boolean> {
  return (await memberIds(db, conversationId)).includes(userId);
}

export async function requireMember(db: Database, conversationId: string, userId: string): Promise<void> {
  if (!(await isMember(db, conversationId, userId))) throw notFound(CONVERSATION_NOT_FOUND);
}

/** All members, after checking that `userId` is one of them. */
export async function membersFor(db: Database, conversationId: string, userId: string): Promise<readonly string[]> {
  const ids = await memberIds(db, conversationId);
  if (!ids.includes(userId)) throw notFound(CONVERSATION_NOT_FOUND);
  return ids;
}

/** The other members, after checking that `userId` is one of them. */
export async function otherMembers(db: Database, conversationId: string, userId: string): Promise<string[]> {
  return (await membersFor(db, conversationId, userId)).filter((id) => id !== userId);
}
