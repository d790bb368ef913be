import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('email_lower', 'text', (c) => c.unique())
    .addColumn('avatar_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ONLINE'))
    .addColumn('last_seen_at', 'text')
    .addColumn('eblid', 'text', (c) => c.notNull().unique())
    .addColumn('bio', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('username_lower', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failure_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .execute();

  await db.schema
    .createTable('contacts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('requester_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('addressee_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('pair_key', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contacts_requester').on('contacts').column('requester_id').execute();
  await db.schema.createIndex('contacts_addressee').on('contacts').column('addressee_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['contacts', 'login_failures', 'refresh_tokens', 'users']) await db.schema.dropTable(t).execute();
}
