// «Перейти к дате» and the search's date filter: a conversation's messages by the time they were written, so the
// first message of a day is found by the index instead of walking the conversation's history by seq.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('messages_conversation_created')
    .on('messages')
    .columns(['conversation_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_conversation_created').execute();
}
