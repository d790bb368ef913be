// Sign-in throttling by (username, address) pair, by address and for the whole server (server/auth/login-throttle.ts)
// replaces the per-username `login_failures`: `pending` counts password checks still running, which count like
// failures until they end, so parallel guesses cannot pass the limit. Old per-username counts are dropped.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('username_lower', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('pending', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .execute();
  await db.schema.createIndex('sign_in_throttle_username').on('sign_in_throttle').column('username_lower').execute();
  await db.schema.dropTable('login_failures').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_failures')
    .addColumn('username_lower', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failure_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .execute();
  await db.schema.dropTable('sign_in_throttle').execute();
}
