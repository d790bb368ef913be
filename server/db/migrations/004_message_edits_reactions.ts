// Editing and reactions: messages.edited_at (null until the sender changes the text; the text itself stays in
// messages.content, the one copy other features index), and one row per (message, user, emoji) reaction.
// messages.reactions keeps the message's reactions as the contract's JSON (null when there are none), rewritten
// from the rows in the transaction that changes them: history pages, the list and search read reactions with the
// message itself, at no extra query (a page of reacted messages costs about what a page without does).
// The index lets a reaction change re-read its message's rows alone.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('edited_at', 'text').execute();
  await db.schema.alterTable('messages').addColumn('reactions', 'text').execute();
  await db.schema
    .createTable('reactions')
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reactions_pk', ['message_id', 'user_id', 'emoji'])
    .execute();
  // A page's reactions are read from this index alone, in order of time (no lookup of each row in the table).
  await db.schema
    .createIndex('reactions_by_message')
    .on('reactions')
    .columns(['message_id', 'created_at', 'emoji', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reactions').execute();
  await db.schema.alterTable('messages').dropColumn('reactions').execute();
  await db.schema.alterTable('messages').dropColumn('edited_at').execute();
}
