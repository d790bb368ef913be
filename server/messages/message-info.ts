// «Информация» on one's own message (docs/behaviour.md §10.19): the other members whose read cursor passed it, with
// the time their cursor first reached that far (read_marks; null for reads before marks were kept), and the rest.
import type { Database } from '../db/database';
import { forbidden, notFound } from '../http/errors';
import { memberList } from '../conversations/membership';
import { MESSAGE_NOT_FOUND } from './delete-message';

export async function messageInfo(db: Database, userId: string, messageId: string) {
  const row = await db
    .selectFrom('messages')
    .select(['id', 'conversation_id', 'sender_id', 'seq'])
    .where('id', '=', messageId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound(MESSAGE_NOT_FOUND);
  const members = await memberList(db, row.conversation_id);
  if (!members.some((m) => m.id === userId)) throw notFound(MESSAGE_NOT_FOUND);
  if (row.sender_id !== userId) throw forbidden('Информация доступна только о своих сообщениях');
  const seq = Number(row.seq);
  const [cursors, marks] = await Promise.all([
    db
      .selectFrom('conversation_members')
      .select(['user_id', 'last_read_seq', 'joined_seq'])
      .where('conversation_id', '=', row.conversation_id)
      .execute(),
    db
      .selectFrom('read_marks')
      .select(['user_id', (eb) => eb.fn.min('read_at').as('read_at')])
      .where('conversation_id', '=', row.conversation_id)
      .where('seq', '>=', seq)
      .groupBy('user_id')
      .execute(),
  ]);
  const cursor = new Map(cursors.map((c) => [c.user_id, Number(c.last_read_seq)]));
  // The members who were there when it came: not those who joined later, even if the history shows it to them.
  const joined = new Map(cursors.map((c) => [c.user_id, Number(c.joined_seq)]));
  const others = members.filter((m) => m.id !== userId && m.visibleFromSeq < seq && (joined.get(m.id) ?? 0) < seq);
  const readAt = new Map(marks.map((m) => [m.user_id, m.read_at as string | null]));
  const read = others
    .filter((m) => (cursor.get(m.id) ?? 0) >= seq)
    .map((m) => ({ userId: m.id, readAt: readAt.get(m.id) ?? null }))
    .sort((a, b) => (a.readAt ?? '').localeCompare(b.readAt ?? ''));
  const unread = others.filter((m) => (cursor.get(m.id) ?? 0) < seq).map((m) => m.id);
  return { read, unread };
}
