// Group calls (docs/calls.md "Group calls"): a group's call is a room that stays open while anyone is in it.
// - calls.group_call: 1 for a group's call. Its row is open (outcome null) while the call is on; at most one open
//   per conversation (a partial unique index), so two members starting at once end up in one call.
// - calls.participant_ids: who took part, comma-separated in joining order (the entry's «5 участников»).
// - group_call_participants: one row per person who joined, with the socket they are in it from (one device at
//   a time), since when they left (null: in the call now) and, when that socket's connection died, since when
//   (the call ends by itself when everyone in it has been gone long enough).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('calls')
    .addColumn('group_call', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('calls').addColumn('participant_ids', 'text').execute();
  await db.schema
    .createIndex('calls_group_open')
    .on('calls')
    .column('conversation_id')
    .unique()
    .where(sql<boolean>`group_call = 1 and outcome is null`)
    .execute();
  await db.schema
    .createTable('group_call_participants')
    .addColumn('call_id', 'text', (c) => c.notNull().references('calls.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('socket_id', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addColumn('left_at', 'text')
    .addColumn('gone_at', 'text')
    .addPrimaryKeyConstraint('group_call_participants_pk', ['call_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('group_call_participants').execute();
  await db.schema.dropIndex('calls_group_open').execute();
  await db.schema.alterTable('calls').dropColumn('participant_ids').execute();
  await db.schema.alterTable('calls').dropColumn('group_call').execute();
}
