// Message actions (docs/behaviour.md §10.19): messages hidden for one person («Удалить у меня», «Скрыть у себя»),
// pins, mentions by id, forwarded copies' first author, and when read cursors moved (for «Информация»).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hidden_messages')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('hidden_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('hidden_messages_pk', ['user_id', 'message_id'])
    .execute();
  // A closed device asks what was hidden since a time (GET /api/messages/deleted).
  await db.schema
    .createIndex('hidden_messages_user_time')
    .on('hidden_messages')
    .columns(['user_id', 'hidden_at'])
    .execute();

  await db.schema
    .createTable('message_pins')
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('pinned_by', 'text', (c) => c.notNull())
    .addColumn('pinned_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_pins_pk', ['conversation_id', 'message_id'])
    .execute();

  await db.schema
    .createTable('message_mentions')
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_mentions_pk', ['message_id', 'user_id'])
    .execute();
  // The chat list's «@»: a user's mentions per conversation.
  await db.schema
    .createIndex('message_mentions_user')
    .on('message_mentions')
    .columns(['user_id', 'conversation_id'])
    .execute();

  await db.schema
    .createTable('read_marks')
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('read_marks_pk', ['conversation_id', 'user_id', 'seq'])
    .execute();

  await db.schema.alterTable('messages').addColumn('forwarded_from_user_id', 'text').execute();
  await db.schema.alterTable('messages').addColumn('forwarded_from_name', 'text').execute();
  // The mentioned ids as JSON on the row too, so pages read them without another query.
  await db.schema.alterTable('messages').addColumn('mentions', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('mentions').execute();
  await db.schema.alterTable('messages').dropColumn('forwarded_from_name').execute();
  await db.schema.alterTable('messages').dropColumn('forwarded_from_user_id').execute();
  for (const t of ['read_marks', 'message_mentions', 'message_pins', 'hidden_messages'])
    await db.schema.dropTable(t).execute();
}
