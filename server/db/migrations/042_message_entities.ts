// Formatted text (docs/behaviour.md §10.42 Formatting): `messages.entities` holds a message's formatting as JSON of
// the contract's ranges over its plain text (src/contract/message-entities.ts), null when the text is plain.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('entities', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('entities').execute();
}
