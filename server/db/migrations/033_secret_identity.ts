// Identity keys of secret chats (docs/secret-chats.md "Identity keys"): each person's Ed25519 identity public key
// (the first registered wins; another one only as an explicit reset, which bumps the version so that every client
// sees the change), each device's signature key with its signature by the identity key, and the requests of new
// devices waiting for an old device's approval (an opaque sealed answer the server only relays).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('secret_identities')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('reset_at', 'text')
    .execute();
  await db.schema.alterTable('secret_devices').addColumn('signature_key', 'text').execute();
  await db.schema.alterTable('secret_devices').addColumn('identity_signature', 'text').execute();
  await db.schema
    .createTable('secret_approvals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('device_key', 'text', (c) => c.notNull())
    .addColumn('exchange_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('signature', 'text')
    .addColumn('sealed', 'text')
    .addColumn('answered_at', 'text')
    .execute();
  await db.schema
    .createIndex('secret_approvals_user')
    .on('secret_approvals')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('secret_approvals').execute();
  await db.schema.alterTable('secret_devices').dropColumn('identity_signature').execute();
  await db.schema.alterTable('secret_devices').dropColumn('signature_key').execute();
  await db.schema.dropTable('secret_identities').execute();
}
