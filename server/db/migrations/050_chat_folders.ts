// Chat folders («Папки», docs/behaviour.md §10.47): a person's own named filters of the chat list.
// - chat_folders: one row per folder, `position` its place among its owner's tabs (0 first); the rules are 1/0 flags
//   (личные, группы, непрочитанные, без звука), combined as §10.47 says.
// - chat_folder_chats: the chats a folder names, `excluded` 0 for one always in it and 1 for one never in it. A chat
//   its owner left stays named but stops matching: the list is read joined with the owner's memberships.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chat_folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('rule_direct', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rule_groups', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rule_unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rule_muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_folders_user').on('chat_folders').columns(['user_id', 'position']).execute();
  await db.schema
    .createTable('chat_folder_chats')
    .addColumn('folder_id', 'text', (c) => c.notNull().references('chat_folders.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('excluded', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('chat_folder_chats_pk', ['folder_id', 'conversation_id'])
    .execute();
  await db.schema
    .createIndex('chat_folder_chats_conversation')
    .on('chat_folder_chats')
    .column('conversation_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chat_folder_chats').execute();
  await db.schema.dropTable('chat_folders').execute();
}
