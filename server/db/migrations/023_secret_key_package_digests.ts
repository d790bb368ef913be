// A key package is used once (RFC 9420): the SHA-256 of every one a device uploaded stays after the package is
// handed out and deleted, so the same package uploaded again is refused instead of handed out a second time.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('secret_key_package_digests')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull().references('secret_devices.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('secret_key_package_digests_device')
    .on('secret_key_package_digests')
    .column('device_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('secret_key_package_digests').execute();
}
