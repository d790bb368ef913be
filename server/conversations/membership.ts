// Membership checks shared by routes and socket events. A non-member learns nothing about a conversation:
// it gets the same 404 as for one that does not exist.
//
// A conversation's members (with their roles and the seq their history starts after) are remembered per database
// handle after the first read, so every send, typing event or call signal checks membership without a query.
// Whatever changes membership (group-members.ts) forgets the conversation here once its transaction committed
// and tells the other server processes to forget it too (groups.plugin.ts).
import type { ParticipantRole } from '../../src/contract/entities';
import type { Database } from '../db/database';
import { notFound } from '../http/errors';

export const CONVERSATION_NOT_FOUND = 'Беседа не найдена';

export interface Member {
  id: string;
  role: ParticipantRole;
  /** The member sees the messages whose seq is greater (0: all). */
  visibleFromSeq: number;
  /** «Без звука» until this ISO time (chat-settings.ts: FOREVER_AT for ever); null when never muted. */
  mutedUntil: string | null;
}

/** Members in joining order, and their ids (the hot path reads ids alone). */
interface Members {
  ids: readonly string[];
  list: readonly Member[];
}

/** Conversations whose members are kept; the least recently used go first. */
const CACHE_SIZE = 20_000;
const caches = new WeakMap<Database, Map<string, Members>>();

function cacheOf(db: Database): Map<string, Members> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

function remember(cache: Map<string, Members>, conversationId: string, members: Members): void {
  cache.delete(conversationId);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(conversationId, members);
}

const membersOf = (list: Member[]): Members => ({ ids: list.map((m) => m.id), list });

/**
 * Records the members of a conversation that has just been created (its transaction committed). They all
 * joined at the same instant, so their order is that of their ids, as the database gives it.
 */
export function rememberMembers(
  db: Database,
  conversationId: string,
  userIds: readonly string[],
  ownerId: string | null = null,
): void {
  const list = [...new Set(userIds)]
    .sort()
    .map((id): Member => ({ id, role: id === ownerId ? 'OWNER' : 'MEMBER', visibleFromSeq: 0, mutedUntil: null }));
  remember(cacheOf(db), conversationId, membersOf(list));
}

/** Drops what this process remembers of the conversation's members (they changed, here or elsewhere). */
export function forgetMembers(db: Database, conversationId: string): void {
  cacheOf(db).delete(conversationId);
}

async function readMembers(db: Database, conversationIds: readonly string[]): Promise<Map<string, Members>> {
  const cache = cacheOf(db);
  const out = new Map<string, Members>();
  const missing: string[] = [];
  for (const id of conversationIds) {
    const known = cache.get(id);
    if (known) out.set(id, known);
    else missing.push(id);
  }
  const read = new Map<string, Member[]>();
  // Chunks keep each statement under SQLite's variable limit.
  for (let i = 0; i < missing.length; i += 500) {
    const rows = await db
      .selectFrom('conversation_members')
      .select(['conversation_id', 'user_id', 'role', 'visible_from_seq', 'muted_until'])
      .where('conversation_id', 'in', missing.slice(i, i + 500))
      .orderBy('conversation_id')
      .orderBy('joined_at')
      .orderBy('user_id')
      .execute();
    for (const r of rows) {
      const member: Member = {
        id: r.user_id,
        role: r.role as ParticipantRole,
        visibleFromSeq: Number(r.visible_from_seq),
        mutedUntil: r.muted_until,
      };
      const list = read.get(r.conversation_id);
      if (list) list.push(member);
      else read.set(r.conversation_id, [member]);
    }
  }
  // An unknown id is not remembered: ids are random, and a miss must not fill the cache.
  for (const [id, list] of read) {
    const members = membersOf(list);
    remember(cache, id, members);
    out.set(id, members);
  }
  return out;
}

/** Members of each conversation in joining order (then by id); conversations that do not exist are left out. */
export async function membersOfMany(
  db: Database,
  conversationIds: readonly string[],
): Promise<Map<string, readonly string[]>> {
  const out = new Map<string, readonly string[]>();
  for (const [id, m] of await readMembers(db, conversationIds)) out.set(id, m.ids);
  return out;
}

/** Members with their roles, per conversation. */
export async function memberListsOf(
  db: Database,
  conversationIds: readonly string[],
): Promise<Map<string, readonly Member[]>> {
  const out = new Map<string, readonly Member[]>();
  for (const [id, m] of await readMembers(db, conversationIds)) out.set(id, m.list);
  return out;
}

async function membersFor1(db: Database, conversationId: string): Promise<Members | undefined> {
  const cache = cacheOf(db);
  const known = cache.get(conversationId);
  if (known) {
    // Most recently used last, so the eviction above drops cold conversations.
    remember(cache, conversationId, known);
    return known;
  }
  return (await readMembers(db, [conversationId])).get(conversationId);
}

/** Every member of the conversation, in joining order; empty when it does not exist. */
export async function memberIds(db: Database, conversationId: string): Promise<readonly string[]> {
  return (await membersFor1(db, conversationId))?.ids ?? [];
}

/** Every member with role and visibility, in joining order; empty when it does not exist. */
export async function memberList(db: Database, conversationId: string): Promise<readonly Member[]> {
  return (await membersFor1(db, conversationId))?.list ?? [];
}

export async function isMember(db: Database, conversationId: string, userId: string): Promise<boolean> {
  return (await memberIds(db, conversationId)).includes(userId);
}

export async function requireMember(db: Database, conversationId: string, userId: string): Promise<void> {
  if (!(await isMember(db, conversationId, userId))) throw notFound(CONVERSATION_NOT_FOUND);
}

/** The caller as a member (role, where their history starts), or the non-member's 404. */
export async function memberOf(db: Database, conversationId: string, userId: string): Promise<Member> {
  const me = (await memberList(db, conversationId)).find((m) => m.id === userId);
  if (!me) throw notFound(CONVERSATION_NOT_FOUND);
  return me;
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
