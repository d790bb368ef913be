// Guest links to calls (docs/behaviour.md §10.40): `call_guest_links` holds a call room's links (144 random bits,
// an expiry of one hour to seven days, revocable; `rung_at` is when the members were last rung for it, so a flood of
// knocks rings them at most once a minute on any process); `call_guests` one knock each, with its state and the hash
// of the secret the guest proves itself with. `public_key` on both is left empty by plain calls: calls with
// end-to-end encryption will carry the guest's key there. `conversations.guests_admins_only` is a group's «Кто
// впускает гостей».
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('call_guest_links')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('room', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.references('conversations.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('rung_at', 'text')
    .addColumn('public_key', 'text')
    .execute();
  await db.schema.createIndex('call_guest_links_room').on('call_guest_links').column('room').execute();
  await db.schema
    .createTable('call_guests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('link_code', 'text', (c) => c.notNull().references('call_guest_links.code').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('public_key', 'text')
    .execute();
  await db.schema.createIndex('call_guests_link_time').on('call_guests').columns(['link_code', 'created_at']).execute();
  await db.schema
    .alterTable('conversations')
    .addColumn('guests_admins_only', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversations').dropColumn('guests_admins_only').execute();
  await db.schema.dropTable('call_guests').execute();
  await db.schema.dropTable('call_guest_links').execute();
}
