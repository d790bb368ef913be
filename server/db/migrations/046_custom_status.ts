// One's own status (docs/behaviour.md §10.44): an emoji and a short text beside the name, apart from presence.
// - users.custom_status_emoji / custom_status_text: '' when unset (both empty: no status).
// - users.custom_status_expires_at: when the server clears it (ISO, UTC), null for «Не сбрасывать»; indexed for the
//   scheduler's sweep (server/scheduled/scheduler.ts), which looks for the earliest one.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('custom_status_emoji', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('custom_status_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('users').addColumn('custom_status_expires_at', 'text').execute();
  await db.schema.createIndex('users_custom_status_expires').on('users').column('custom_status_expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_custom_status_expires').execute();
  await db.schema.alterTable('users').dropColumn('custom_status_expires_at').execute();
  await db.schema.alterTable('users').dropColumn('custom_status_text').execute();
  await db.schema.alterTable('users').dropColumn('custom_status_emoji').execute();
}
