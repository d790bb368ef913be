// «Избранное» and scheduled sends (docs/behaviour.md §10.31, §10.32). Every account gets a chat with itself
// (`saved` = 1, one member, direct_key `saved:<user id>` so a second one can never be made, id `saved-<user id>`);
// the accounts that exist get theirs here, new ones at sign-up or on their first list read. `scheduled_messages`
// holds what the server sends later: a message into a chat (`kind` 'message') or a reminder into «Избранное»
// (`kind` 'reminder', quoting `source_message_id`); `status` moves pending → sending → sent / failed by
// conditional UPDATEs, which is how several server processes agree on who sends. `reminder_of` on a message
// links a reminder to the message it recalls.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('conversations')
    .addColumn('saved', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('messages').addColumn('reminder_of', 'text').execute();
  await sql`INSERT INTO conversations (id, title, is_group, direct_key, created_by, created_at, saved)
    SELECT 'saved-' || id, NULL, 0, 'saved:' || id, id, created_at, 1 FROM users WHERE deleted_at IS NULL`.execute(db);
  await sql`INSERT INTO conversation_members (conversation_id, user_id, joined_at, role)
    SELECT 'saved-' || id, id, created_at, 'MEMBER' FROM users WHERE deleted_at IS NULL`.execute(db);
  await db.schema
    .createTable('scheduled_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('source_message_id', 'text')
    .addColumn('send_at', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure', 'text')
    .addColumn('message_id', 'text')
    // When a process took it for sending: one that died holding it is replaced after a lease (server/scheduled/).
    .addColumn('claimed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The next due item of the whole server (the timer), and one person's list per chat.
  await db.schema.createIndex('scheduled_due').on('scheduled_messages').columns(['status', 'send_at']).execute();
  await db.schema
    .createIndex('scheduled_by_user')
    .on('scheduled_messages')
    .columns(['user_id', 'conversation_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scheduled_messages').execute();
  await sql`DELETE FROM conversation_members WHERE conversation_id IN (SELECT id FROM conversations WHERE saved = 1)`.execute(
    db,
  );
  await sql`DELETE FROM messages WHERE conversation_id IN (SELECT id FROM conversations WHERE saved = 1)`.execute(db);
  await sql`DELETE FROM conversations WHERE saved = 1`.execute(db);
  await db.schema.alterTable('messages').dropColumn('reminder_of').execute();
  await db.schema.alterTable('conversations').dropColumn('saved').execute();
}
