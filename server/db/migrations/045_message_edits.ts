// «История изменений»: each edit keeps the text it replaced (and its entities, when it had any) with the time of that
// edit; a version was written at the previous row's edited_at (the first at the message's created_at). Secret chats
// keep none (their text is ciphertext).
// The rows go with the message when it is deleted for everyone (delete-message.ts) or removed (cascade).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_edits')
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('entities', 'text')
    .addColumn('edited_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('message_edits_by_message')
    .on('message_edits')
    .columns(['message_id', 'edited_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('message_edits').execute();
}
