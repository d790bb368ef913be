// Deleted accounts (server/users/account-deletion.ts): the row stays, so others' history keeps its author as
// «Удалённый аккаунт»; `deleted_at` marks it and starts the 30 days after which its username and EBLID are free.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deleted_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('deleted_at').execute();
}
