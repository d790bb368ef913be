// A call's timeline entry is no news to those who took part in it: their read cursor moves past it, but only where
// nothing older is unread (the entry never marks earlier messages read). Shared by direct calls (call-log.ts) and
// group calls (group-calls.ts); runs inside the transaction that writes the entry.
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';

/** Moves `userIds`' cursors in the conversation to the entry; returns whose moved. */
export async function markCallEntrySeen(
  trx: Transaction<DB>,
  entry: { conversationId: string; messageId: string },
  userIds: string[],
  options: {
    /** A group's changes (SYSTEM messages) never count as unread, so they do not hold the cursor back. */
    skipSystem: boolean;
  },
): Promise<string[]> {
  if (!userIds.length) return [];
  const { seq } = await trx
    .selectFrom('messages')
    .select('seq')
    .where('id', '=', entry.messageId)
    .executeTakeFirstOrThrow();
  const moved = await trx
    .updateTable('conversation_members as cm')
    .set({ last_read_seq: seq })
    .where('cm.conversation_id', '=', entry.conversationId)
    .where('cm.user_id', 'in', userIds)
    .where(({ not, exists, selectFrom }) => {
      let older = selectFrom('messages as m')
        .select('m.id')
        .where('m.conversation_id', '=', entry.conversationId)
        .where('m.deleted_at', 'is', null)
        .where('m.id', '!=', entry.messageId);
      if (options.skipSystem) older = older.where('m.type', '!=', 'SYSTEM');
      return not(exists(older.whereRef('m.sender_id', '!=', 'cm.user_id').whereRef('m.seq', '>', 'cm.last_read_seq')));
    })
    .returning('user_id')
    .execute();
  return moved.map((r) => r.user_id);
}
