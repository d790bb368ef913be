// Groups that change: a member's role (the creator of a group owns it), the sequence number before which a member
// who joined later sees nothing, a group's picture, and SYSTEM entries' details (who changed what, with the names
// of the time).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('conversation_members')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('MEMBER'))
    .execute();
  await db.schema
    .alterTable('conversation_members')
    .addColumn('visible_from_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE conversation_members SET role = 'OWNER'
    WHERE EXISTS (SELECT 1 FROM conversations c
      WHERE c.id = conversation_members.conversation_id AND c.direct_key IS NULL AND c.created_by = conversation_members.user_id)`.execute(
    db,
  );
  await db.schema.alterTable('conversations').addColumn('avatar_url', 'text').execute();
  await db.schema.alterTable('messages').addColumn('system_info', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('system_info').execute();
  await db.schema.alterTable('conversations').dropColumn('avatar_url').execute();
  await db.schema.alterTable('conversation_members').dropColumn('visible_from_seq').execute();
  await db.schema.alterTable('conversation_members').dropColumn('role').execute();
}
