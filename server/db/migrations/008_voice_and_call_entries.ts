// Voice messages and calls as entries of the conversation.
// - voice_notes: a VOICE message's duration and waveform (peaks as a comma-separated list), one row per message.
// - calls: one row per invitation. The outcome is set once, by a conditional UPDATE (… where outcome is null),
//   and whoever sets it writes the CALL message (message_id) in the same transaction, so a call is logged once
//   whichever tab or server process hears its end.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('voice_notes')
    .addColumn('message_id', 'text', (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('waveform', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('caller_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('video', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('answered_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('outcome', 'text')
    .addColumn('duration_sec', 'integer')
    .addColumn('message_id', 'text', (c) => c.unique())
    .execute();
  await db.schema.createIndex('calls_open').on('calls').columns(['conversation_id', 'outcome', 'started_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('calls').execute();
  await db.schema.dropTable('voice_notes').execute();
}
