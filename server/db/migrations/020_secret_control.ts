// Secret chats' edits and reactions (docs/secret-chats.md "Edits, reactions and deletions"): each is an ENCRYPTED
// message of its own, marked `control` so that it is no news — not counted as unread, not the chat list's preview,
// no push. The server learns that a message is an edit or a reaction, never of which message or what it says.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Null for every ordinary message (1 for a control message): the existing rows need no rewrite.
  await db.schema.alterTable('messages').addColumn('control', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('control').execute();
}
