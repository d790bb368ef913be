// Read cursors: each member's last-read position in a conversation (conversation_members.last_read_seq, the seq
// of the newest message the member has read; 0 = nothing). Unread = visible messages from others after it (one
// range of the messages_visible index, empty when all is read), and marking a conversation read is one UPDATE.
// A READ receipt of a message is the cursor at or past it (server/messages/read-cursors.ts).
// Filled from the receipts stored until now: the cursor goes to the newest message the member had a receipt
// for, so what was read stays read (an older message left unread among read ones counts as read from now on).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('conversation_members')
    .addColumn('last_read_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update conversation_members set last_read_seq = coalesce((
      select max(m.seq) from receipts r join messages m on m.id = r.message_id
      where r.user_id = conversation_members.user_id and r.conversation_id = conversation_members.conversation_id
    ), 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversation_members').dropColumn('last_read_seq').execute();
}
