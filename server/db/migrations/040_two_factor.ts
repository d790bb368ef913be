// Two-step sign-in (docs/behaviour.md §10.7a): `two_factor` holds an account's authenticator secret (`secret` once
// confirmed, `pending_secret` while the QR code waits for its first code), when it was turned on (a browser remembered
// for the second factor is remembered for that setting only) and the last 30-second step a code was accepted for (a
// code is never taken twice). `recovery_codes` holds the one-time codes as SHA-256 digests, `used_at` once spent.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('two_factor')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text')
    .addColumn('pending_secret', 'text')
    .addColumn('enabled_at', 'text')
    .addColumn('last_step', 'bigint')
    .execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('two_factor').execute();
}
