// Secret chats (docs/secret-chats.md): the server as MLS's delivery service. A conversation may be secret (its
// messages are ENCRYPTED) with an epoch counter that orders its commits; browser sign-ins register as devices with
// one-time key packages; each group's devices and its ordered log of commits and welcomes.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));

  await db.schema
    .alterTable('conversations')
    .addColumn('secret', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('conversations')
    .addColumn('secret_epoch', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // One per sign-in (the access token's session id); revoked when the sign-in ends, never deleted while a group's
  // log names it.
  await db.schema
    .createTable('secret_devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('secret_devices_user').on('secret_devices').columns(['user_id', 'revoked_at']).execute();

  // One-time key packages, handed out oldest first (by id) and deleted as they are.
  await serial('secret_key_packages')
    .addColumn('device_id', 'text', (c) => c.notNull().references('secret_devices.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('secret_key_packages_device')
    .on('secret_key_packages')
    .columns(['device_id', 'id'])
    .execute();

  // The ordered log: `id` is the seq (one counter for every conversation, so a conversation's entries are ordered
  // by it). Commits are read by the group's devices, welcomes by the devices in `targets` (a JSON array) alone.
  await serial('secret_log')
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('epoch', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('added', 'text', (c) => c.notNull())
    .addColumn('removed', 'text', (c) => c.notNull())
    .addColumn('targets', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('secret_log_conversation').on('secret_log').columns(['conversation_id', 'id']).execute();

  // The devices of each group: in it while left_seq is null; it reads the commits after joined_seq (its welcome) and
  // up to left_seq (the commit that removed it).
  await db.schema
    .createTable('secret_group_devices')
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull().references('secret_devices.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('joined_epoch', 'integer', (c) => c.notNull())
    .addColumn('joined_seq', 'integer', (c) => c.notNull())
    .addColumn('left_seq', 'integer')
    .addPrimaryKeyConstraint('secret_group_devices_pk', ['conversation_id', 'device_id'])
    .execute();
  await db.schema.createIndex('secret_group_devices_device').on('secret_group_devices').column('device_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('secret_group_devices').execute();
  await db.schema.dropTable('secret_log').execute();
  await db.schema.dropTable('secret_key_packages').execute();
  await db.schema.dropTable('secret_devices').execute();
  await db.schema.alterTable('conversations').dropColumn('secret_epoch').execute();
  await db.schema.alterTable('conversations').dropColumn('secret').execute();
}
