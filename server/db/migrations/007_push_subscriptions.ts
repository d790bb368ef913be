// Web Push subscriptions (server/push/): one row per browser that turned notifications on, tied to the sign-in
// (refresh-token family) it was made in, so signing out removes it. The endpoint is the push service's address
// for that browser; p256dh and auth are its keys for the payload's encryption (RFC 8291).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('show_text', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user')
    .on('push_subscriptions')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('push_subscriptions_session').on('push_subscriptions').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_subscriptions').execute();
}
