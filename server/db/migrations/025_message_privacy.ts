// «Кто может мне писать» (docs/behaviour.md §10.26): 'everyone', 'groups' (everyone's until they choose) or 'friends'.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('message_privacy', 'text', (c) => c.notNull().defaultTo('groups'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('message_privacy').execute();
}
