// Following threads: one follows a thread by writing in it, by being its root's author (once: an author who
// unfollowed stays so) or by being mentioned in it; anyone may unfollow. A follower's unread replies are those of
// others after their read position; only followers hear of a reply outside the open group (tabs and Web Push).
import type { Database } from '../db/database';

/** After a reply is stored: the writer and the mentioned follow (again), the root's author follows once. */
export async function followOnReply(
  db: Database,
  reply: {
    rootId: string;
    rootAuthorId: string;
    conversationId: string;
    senderId: string;
    mentions: readonly string[];
  },
  members: readonly string[],
): Promise<void> {
  const row = (userId: string) => ({
    root_id: reply.rootId,
    user_id: userId,
    conversation_id: reply.conversationId,
    following: 1,
  });
  const active = [...new Set([reply.senderId, ...reply.mentions])].filter((id) => members.includes(id));
  await db
    .insertInto('thread_follows')
    .values(active.map(row))
    .onConflict((oc) => oc.columns(['root_id', 'user_id']).doUpdateSet({ following: 1 }))
    .execute();
  if (!active.includes(reply.rootAuthorId) && members.includes(reply.rootAuthorId)) {
    await db
      .insertInto('thread_follows')
      .values(row(reply.rootAuthorId))
      .onConflict((oc) => oc.columns(['root_id', 'user_id']).doNothing())
      .execute();
  }
  // One who writes in a thread has read it up to their own reply.
  await readUpTo(db, reply.rootId, reply.senderId);
}

/** The thread's followers who are still members of its group. */
export async function followersOf(db: Database, rootId: string, members: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('thread_follows')
    .select('user_id')
    .where('root_id', '=', rootId)
    .where('following', '=', 1)
    .execute();
  return rows.map((r) => r.user_id).filter((id) => members.includes(id));
}

export async function isFollowing(db: Database, rootId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('thread_follows')
    .select('following')
    .where('root_id', '=', rootId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.following ?? 0) === 1;
}

/** Follows or unfollows; the read position is kept either way. */
export async function setFollowing(
  db: Database,
  rootId: string,
  conversationId: string,
  userId: string,
  follow: boolean,
): Promise<void> {
  const following = follow ? 1 : 0;
  await db
    .insertInto('thread_follows')
    .values({ root_id: rootId, user_id: userId, conversation_id: conversationId, following })
    .onConflict((oc) => oc.columns(['root_id', 'user_id']).doUpdateSet({ following }))
    .execute();
}

/** The follower has read the thread up to its newest reply (only moves forward; a non-follower has nothing to move). */
export async function readUpTo(db: Database, rootId: string, userId: string): Promise<void> {
  const newest = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('thread_root_id', '=', rootId)
    .executeTakeFirst();
  const seq = Number(newest?.seq ?? 0);
  if (!seq) return;
  await db
    .updateTable('thread_follows')
    .set({ read_seq: seq })
    .where('root_id', '=', rootId)
    .where('user_id', '=', userId)
    .where('read_seq', '<', seq)
    .execute();
}

/** The caller's followed threads in groups they are still in (threads on), with their unread replies. */
export async function followedThreads(db: Database, userId: string) {
  const rows = await db
    .selectFrom('thread_follows as f')
    .innerJoin('conversation_members as cm', (j) =>
      j.onRef('cm.conversation_id', '=', 'f.conversation_id').onRef('cm.user_id', '=', 'f.user_id'),
    )
    .innerJoin('conversations as c', 'c.id', 'f.conversation_id')
    .innerJoin('messages as root', 'root.id', 'f.root_id')
    .select((eb) => [
      'f.root_id',
      'f.conversation_id',
      eb
        .selectFrom('messages as r')
        .select((x) => x.fn.countAll<number | string>().as('n'))
        .whereRef('r.thread_root_id', '=', 'f.root_id')
        .whereRef('r.seq', '>', 'f.read_seq')
        .where('r.sender_id', '!=', userId)
        .where('r.deleted_at', 'is', null)
        .as('unread'),
    ])
    .where('f.user_id', '=', userId)
    .where('f.following', '=', 1)
    .where('c.threads_off', '=', 0)
    .where('root.deleted_at', 'is', null)
    .whereRef('root.seq', '>', 'cm.visible_from_seq')
    .execute();
  return rows.map((r) => ({ rootId: r.root_id, conversationId: r.conversation_id, unread: Number(r.unread ?? 0) }));
}
