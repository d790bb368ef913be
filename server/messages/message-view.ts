// Turns message rows into the contract's Message shape. Works on a batch: three queries whatever the
// number of messages (replies, attachments, receipts), so lists never query per message.
import type { Message, MessageType } from '../../src/contract/entities';
import type { Database } from '../db/database';
import type { MessagesTable } from '../db/schema';
import type { Selectable } from 'kysely';

export type MessageRow = Selectable<MessagesTable>;

/** What a quote of a deleted message shows instead of its text. */
export const DELETED_REPLY_TEXT = 'Сообщение удалено';

export async function toMessages(db: Database, rows: MessageRow[]): Promise<Message[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const replyIds = [...new Set(rows.map((r) => r.reply_to_id).filter((x): x is string => Boolean(x)))];
  const [replies, attachments, receipts] = await Promise.all([
    replyIds.length
      ? db.selectFrom('messages').select(['id', 'content', 'deleted_at']).where('id', 'in', replyIds).execute()
      : Promise.resolve([]),
    db
      .selectFrom('message_attachments as a')
      .innerJoin('uploads as u', 'u.id', 'a.upload_id')
      .select(['a.message_id', 'a.position', 'u.url', 'u.kind', 'u.original_name', 'u.size', 'u.width', 'u.height'])
      .where('a.message_id', 'in', ids)
      .orderBy('a.message_id')
      .orderBy('a.position')
      .execute(),
    db
      .selectFrom('receipts')
      .select(['message_id', 'user_id', 'status'])
      .where('message_id', 'in', ids)
      .orderBy('created_at')
      .execute(),
  ]);
  const replyById = new Map(replies.map((r) => [r.id, r]));
  const group = <T extends { message_id: string }>(list: T[]) => {
    const m = new Map<string, T[]>();
    for (const x of list) m.set(x.message_id, [...(m.get(x.message_id) ?? []), x]);
    return m;
  };
  const attachmentsBy = group(attachments);
  const receiptsBy = group(receipts);
  return rows.map((r) => {
    const reply = r.reply_to_id ? replyById.get(r.reply_to_id) : undefined;
    return {
      id: r.id,
      conversationId: r.conversation_id,
      senderId: r.sender_id,
      type: r.type as MessageType,
      content: r.content,
      createdAt: r.created_at,
      deletedAt: r.deleted_at,
      clientMessageId: r.client_message_id,
      replyTo: reply ? { id: reply.id, content: reply.deleted_at ? DELETED_REPLY_TEXT : reply.content } : null,
      attachments: (attachmentsBy.get(r.id) ?? []).map((a) => ({
        url: a.url,
        type: a.kind === 'IMAGE' ? ('IMAGE' as const) : ('FILE' as const),
        name: a.original_name,
        size: Number(a.size),
        width: a.width,
        height: a.height,
      })),
      receipts: (receiptsBy.get(r.id) ?? []).map((x) => ({ userId: x.user_id, status: x.status as 'READ' })),
    };
  });
}
