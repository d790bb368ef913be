// Encrypted attachments of secret chats (docs/secret-chats.md, "Files and voice messages"): an upload may belong to
// one secret chat, whose members alone may read it back. Its bytes are ciphertext the server never interprets.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('uploads')
    .addColumn('conversation_id', 'text', (c) => c.references('conversations.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('conversation_id').execute();
}
