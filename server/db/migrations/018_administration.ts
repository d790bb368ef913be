// Running the server for others (docs/administration.md): account roles and deactivation, the server's settings,
// registration invite codes, one-time password-reset links and reports. A server upgraded with accounts but no
// administrator gets its oldest live account as one, as a fresh server gets its first.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
    .execute();
  await db.schema.alterTable('users').addColumn('deactivated_at', 'text').execute();
  await sql`UPDATE users SET role = 'admin' WHERE id = (
    SELECT id FROM users WHERE deleted_at IS NULL ORDER BY created_at, id LIMIT 1)`.execute(db);

  await db.schema
    .createTable('server_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  // The place of the first administrator is taken (server/admin/roles.ts) once there is one.
  await sql`INSERT INTO server_settings (key, value)
    SELECT 'firstAdmin', '"' || id || '"' FROM users WHERE role = 'admin'`.execute(db);

  await db.schema
    .createTable('registration_invites')
    .addColumn('code', 'text', (c) => c.primaryKey())
    // Null when the shell made it (`npm run admin -- invite`).
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('max_uses', 'integer')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'text')
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The reported message, if any; its text and the messages around it are copied (the reporter's view).
    .addColumn('message_id', 'text')
    .addColumn('conversation_id', 'text')
    .addColumn('message_text', 'text')
    .addColumn('context', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('resolved_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolved_at', 'text')
    // When the reporter saw the outcome's notice.
    .addColumn('notice_seen_at', 'text')
    .execute();
  await db.schema.createIndex('reports_status').on('reports').columns(['status', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reports').execute();
  await db.schema.dropTable('password_resets').execute();
  await db.schema.dropTable('registration_invites').execute();
  await db.schema.dropTable('server_settings').execute();
  await db.schema.alterTable('users').dropColumn('deactivated_at').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
