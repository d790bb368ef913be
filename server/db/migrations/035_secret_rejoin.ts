// A device that could not apply a commit of its group asks to be added again (docs/secret-chats.md "A commit that
// fails to apply"): its place in the group remembers when it asked, until a commit removes its stale leaf and adds
// it with a fresh key package.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('secret_group_devices').addColumn('rejoin_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('secret_group_devices').dropColumn('rejoin_at').execute();
}
