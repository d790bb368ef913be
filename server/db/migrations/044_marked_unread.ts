// «Пометить как непрочитанное»: one's own mark on a chat, kept with the membership so every device shows it; it goes
// when the person opens the chat (POST /messages/mark-conversation-read) or takes it off. 1 while marked.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('conversation_members')
    .addColumn('marked_unread', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversation_members').dropColumn('marked_unread').execute();
}
