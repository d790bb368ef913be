// The recovery key's backup (docs/secret-chats.md "The recovery key"): per person, the key's derivation parameters
// and check value, and the encrypted chunks of their secret-chat history. The server never sees the key.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  // One per person who set a recovery key; `version` grows when a new key replaces the old one.
  await db.schema
    .createTable('secret_backups')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('iterations', 'integer', (c) => c.notNull())
    .addColumn('check_value', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Opaque chunks, read back in `id` order.
  await db.schema
    .createTable('secret_backup_chunks')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'text', (c) => c.notNull().references('secret_backups.user_id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('conversation_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('secret_backup_chunks_user')
    .on('secret_backup_chunks')
    .columns(['user_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('secret_backup_chunks').execute();
  await db.schema.dropTable('secret_backups').execute();
}
