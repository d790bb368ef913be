// Editing and reactions: messages.edited_at (null until the sender changes the text; the text itself stays in
// messages.content, the one copy other features index), and one row per (message, user, emoji) reaction.
// History pages read a page's reactions by message id: the primary key starts with message_id.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('edited_at', 'text').execute();
  await db.schema
    .createTable('reactions')
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reactions_pk', ['message_id', 'user_id', 'emoji'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reactions').execute();
  await db.schema.alterTable('messages').dropColumn('edited_at').execute();
}
