// Sign-ins as the user sees them in «Устройства»: one row per refresh-token family (its id is the family's, the
// `sid` of its access tokens) with the browser and system read from the user agent at sign-in, and when it
// started and was last used (a refresh). Ended sign-ins are deleted. Sign-ins alive before this migration are
// listed too, their browser unknown.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_ins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('browser', 'text')
    .addColumn('os', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_active_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_ins_user').on('sign_ins').columns(['user_id', 'last_active_at']).execute();
  const now = new Date().toISOString();
  await sql`
    INSERT INTO sign_ins (id, user_id, browser, os, created_at, last_active_at)
    SELECT family_id, min(user_id), NULL, NULL, min(created_at), max(created_at) FROM refresh_tokens
    WHERE family_id IN (SELECT family_id FROM refresh_tokens WHERE revoked_at IS NULL AND expires_at > ${now})
    GROUP BY family_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_ins').execute();
}
