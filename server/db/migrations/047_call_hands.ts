// Raised hands in a group's call (docs/calls.md "Group calls"): group_call_participants.hand_at is when the person
// raised their hand (null: down). The call's state lists the raised hands by it, so every server process shows the
// same order; leaving the call lowers the hand.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('group_call_participants').addColumn('hand_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('group_call_participants').dropColumn('hand_at').execute();
}
