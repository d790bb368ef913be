// «Медиа», «Файлы», «Ссылки», «Голосовые» in a chat's «Информация» (GET /api/conversations/:id/media,
// server/messages/chat-media.ts): one small partial index per tab over (conversation_id, seq), holding only the
// rows of that kind, so a page is read newest first from the index however long the chat is. The links' condition
// is the text's http(s):// as written; chat-media.ts repeats each condition literally, as the query planners need to
// use a partial index (tests/server/chat-media.test.ts EXPLAINs it on both databases).
import { type Kysely, sql } from 'kysely';

/** The partial indexes' names and conditions (chat-media.ts imports them, so the query says the same thing). */
export const CHAT_MEDIA_INDEXES = {
  media: { name: 'messages_media_images', where: "type = 'IMAGE'" },
  files: { name: 'messages_media_files', where: "type = 'FILE'" },
  voice: { name: 'messages_media_voice', where: "type = 'VOICE'" },
  links: { name: 'messages_media_links', where: "(content LIKE '%http://%' OR content LIKE '%https://%')" },
} as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { name, where } of Object.values(CHAT_MEDIA_INDEXES))
    await db.schema
      .createIndex(name)
      .on('messages')
      .columns(['conversation_id', 'seq'])
      .where(sql<boolean>`${sql.raw(where)}`)
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { name } of Object.values(CHAT_MEDIA_INDEXES)) await db.schema.dropIndex(name).execute();
}
