// Key packages expire (docs/secret-chats.md "Key packages"): claims skip and prune those older than
// LIMITS.keyPackageTtlDays by `created_at`, which the index below serves. A device may also keep one last-resort
// package, handed out only when it has no other and never deleted by a claim, so a device that is offline while
// its stock runs out can still be added.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('secret_key_packages')
    .addColumn('last_resort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('secret_key_packages_created').on('secret_key_packages').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('secret_key_packages_created').execute();
  await db.schema.alterTable('secret_key_packages').dropColumn('last_resort').execute();
}
