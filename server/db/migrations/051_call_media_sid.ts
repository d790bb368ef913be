// A group call's participant as an external LiveKit knows them (docs/calls.md "Group calls"): media_sid is the
// participant sid of their connection to the call's media room, from LiveKit's participant_joined webhook (null
// until one arrives, and again after each join over a socket). A participant_left of another sid (an older tab,
// a retried event) leaves the roster alone.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('group_call_participants').addColumn('media_sid', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('group_call_participants').dropColumn('media_sid').execute();
}
