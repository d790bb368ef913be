// Indexes for the hot paths of messaging, and the receipts invariant the unread count relies on.
// - A user's memberships by conversation, and each conversation's members in joining order: the list and the
//   membership cache read rows in the order they answer with instead of sorting them.
// - Visible messages by (conversation, seq), with the sender: the latest visible message is one probe (max(seq)
//   no longer checks deleted_at row by row), history pages walk it, and counting a conversation's messages from
//   others reads the index alone. It replaces (conversation_id, seq), which every query filtered by deleted_at.
// - Receipts exist only for visible messages of someone else (the routes keep it so from now on), so a
//   user's unread count is (messages from others) − (their receipts in the conversation), two index counts.
// - conversations.last_message_at goes: nothing read it (the list orders by the latest visible message), and
//   keeping it cost every send an UPDATE.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('conversation_members_user_conversation')
    .on('conversation_members')
    .columns(['user_id', 'conversation_id'])
    .execute();
  await db.schema.dropIndex('conversation_members_user').execute();
  await db.schema
    .createIndex('conversation_members_joined')
    .on('conversation_members')
    .columns(['conversation_id', 'joined_at', 'user_id'])
    .execute();

  await db.schema
    .createIndex('messages_visible')
    .on('messages')
    // deleted_at is always null here, but SQLite reads a partial index alone only if it holds every column
    // the query names.
    .columns(['conversation_id', 'seq', 'sender_id', 'deleted_at'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema.dropIndex('messages_conversation_seq').execute();

  await db.schema.alterTable('conversations').dropColumn('last_message_at').execute();

  await sql`delete from receipts where message_id in
    (select m.id from messages m where m.deleted_at is not null or m.sender_id = receipts.user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversations').addColumn('last_message_at', 'text').execute();
  await db.schema.createIndex('messages_conversation_seq').on('messages').columns(['conversation_id', 'seq']).execute();
  await db.schema.dropIndex('messages_visible').execute();
  await db.schema.dropIndex('conversation_members_joined').execute();
  await db.schema.createIndex('conversation_members_user').on('conversation_members').column('user_id').execute();
  await db.schema.dropIndex('conversation_members_user_conversation').execute();
}
