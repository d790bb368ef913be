// «История изменений» (GET /api/messages/:id/edits): the texts an edit replaced (migrations/045_message_edits.ts),
// shown to whoever can read the message, checked as the history route checks it: a member, the message not deleted,
// not hidden by them, and not before their history starts. Anything else is «not found» (ids of other chats reveal
// nothing). A secret chat keeps no versions: its text is ciphertext (docs/behaviour.md).

import type { Transaction } from 'kysely';
import type { MessageVersion } from '../../src/contract/api/messages';
import type { MessageEntity } from '../../src/contract/message-entities';
import { memberOf } from '../conversations/membership';
import { isSecret, SECRET_IS_ENCRYPTED } from '../conversations/secret-flag';
import type { Database } from '../db/database';
import type { DB } from '../db/schema';
import { badRequest, notFound } from '../http/errors';

const MESSAGE_NOT_FOUND = 'Сообщение не найдено';

const entitiesOf = (json: string | null) => (json ? { entities: JSON.parse(json) as MessageEntity[] } : {});

/** Keeps the text an edit replaces (inside the edit's transaction). */
export async function keepVersion(
  trx: Transaction<DB>,
  messageId: string,
  old: { content: string; entities: string | null },
  editedAt: string,
): Promise<void> {
  await trx
    .insertInto('message_edits')
    .values({ message_id: messageId, content: old.content, entities: old.entities, edited_at: editedAt })
    .execute();
}

/** A message deleted for everyone takes its earlier texts with it. */
export async function forgetVersions(db: Database, messageId: string): Promise<void> {
  await db.deleteFrom('message_edits').where('message_id', '=', messageId).execute();
}

/** The current text first, then the earlier ones, newest first. */
export async function messageVersions(db: Database, userId: string, messageId: string) {
  const row = await db
    .selectFrom('messages')
    .select(['id', 'conversation_id', 'seq', 'content', 'entities', 'created_at', 'edited_at'])
    .where('id', '=', messageId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound(MESSAGE_NOT_FOUND);
  const me = await memberOf(db, row.conversation_id, userId).catch(() => {
    throw notFound(MESSAGE_NOT_FOUND);
  });
  if (me.visibleFromSeq > 0 && Number(row.seq) <= me.visibleFromSeq) throw notFound(MESSAGE_NOT_FOUND);
  const hidden = await db
    .selectFrom('hidden_messages')
    .select('message_id')
    .where('message_id', '=', row.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (hidden) throw notFound(MESSAGE_NOT_FOUND);
  if (await isSecret(db, row.conversation_id)) throw badRequest(SECRET_IS_ENCRYPTED);
  const edits = await db
    .selectFrom('message_edits')
    .select(['content', 'entities', 'edited_at'])
    .where('message_id', '=', row.id)
    .orderBy('edited_at')
    .execute();
  // Each kept text was written when the edit before it was made (the first when the message was sent).
  const earlier: MessageVersion[] = edits.map((e, i) => ({
    content: e.content,
    ...entitiesOf(e.entities ?? null),
    at: i === 0 ? row.created_at : edits[i - 1].edited_at,
  }));
  const current: MessageVersion = {
    content: row.content,
    ...entitiesOf(row.entities ?? null),
    at: row.edited_at ?? row.created_at,
    current: true,
  };
  return { versions: [current, ...earlier.reverse()] };
}
