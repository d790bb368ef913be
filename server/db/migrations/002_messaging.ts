import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text')
    .addColumn('is_group', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('direct_key', 'text', (c) => c.unique())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_message_at', 'text')
    .execute();

  await db.schema
    .createTable('conversation_members')
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_members_pk', ['conversation_id', 'user_id'])
    .execute();
  await db.schema.createIndex('conversation_members_user').on('conversation_members').column('user_id').execute();

  // seq gives a total order that both databases generate: identity on PostgreSQL, rowid alias on SQLite.
  await db.schema
    .createTable('messages')
    .addColumn('seq', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('sender_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('reply_to_id', 'text')
    .addColumn('client_message_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('messages_conversation_seq').on('messages').columns(['conversation_id', 'seq']).execute();
  await db.schema
    .createIndex('messages_client_id')
    .on('messages')
    .columns(['sender_id', 'client_message_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('url', 'text', (c) => c.notNull().unique())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('message_attachments')
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('upload_id', 'text', (c) => c.notNull().references('uploads.id'))
    .addPrimaryKeyConstraint('message_attachments_pk', ['message_id', 'position'])
    .execute();

  await db.schema
    .createTable('receipts')
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('receipts_pk', ['message_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('receipts_user_conversation')
    .on('receipts')
    .columns(['user_id', 'conversation_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['receipts', 'message_attachments', 'uploads', 'messages', 'conversation_members', 'conversations']) {
    await db.schema.dropTable(t).execute();
  }
}
