// «Избранное» (docs/behaviour.md §10.31): every account's chat with itself. Made at sign-up, by migration 030 for
// the accounts that existed, and on the first list read for any that still lack one (an account restored from an
// older backup). Its id and direct_key follow from the user's id, so two processes making it at once end with one.

import { rememberMembers } from '../conversations/membership';
import type { Database } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { badRequest } from '../http/errors';

export const SAVED_STAYS = 'Избранное нельзя удалить или покинуть';

export const savedChatId = (userId: string) => `saved-${userId}`;

/** Users known to have theirs, per database handle: the list route asks the database once per user and process. */
const known = new WeakMap<Database, Set<string>>();
const KNOWN_MAX = 100_000;

/** Makes the user's «Избранное» unless it exists; true when this call made it. */
export async function ensureSavedChat(db: Database, userId: string, now: Date = new Date()): Promise<boolean> {
  let set = known.get(db);
  if (!set) {
    set = new Set();
    known.set(db, set);
  }
  if (set.has(userId)) return false;
  const id = savedChatId(userId);
  const existing = await db.selectFrom('conversations').select('id').where('id', '=', id).executeTakeFirst();
  let made = false;
  if (!existing) {
    const at = now.toISOString();
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('conversations')
          .values({
            id,
            title: null,
            is_group: 0,
            direct_key: `saved:${userId}`,
            created_by: userId,
            created_at: at,
            saved: 1,
          })
          .execute();
        await trx
          .insertInto('conversation_members')
          .values({ conversation_id: id, user_id: userId, joined_at: at, role: 'MEMBER' })
          .execute();
      });
      // Its one member is known from the start: no membership read on the first list or send.
      rememberMembers(db, id, [userId]);
      made = true;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  if (set.size >= KNOWN_MAX) set.clear();
  set.add(userId);
  return made;
}

/** Whether this conversation is someone's «Избранное». */
export async function isSavedChat(db: Database, conversationId: string): Promise<boolean> {
  const row = await db.selectFrom('conversations').select('saved').where('id', '=', conversationId).executeTakeFirst();
  return Number(row?.saved ?? 0) === 1;
}

/** «Удалить чат» and «Покинуть» do not apply to «Избранное»: it is always there (400). */
export async function refuseSaved(db: Database, conversationId: string): Promise<void> {
  if (await isSavedChat(db, conversationId)) throw badRequest(SAVED_STAYS);
}
