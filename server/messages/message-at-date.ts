// «Перейти к дате» (GET /api/conversations/:id/messages/at-date): the first message of the conversation the user
// sees that was written at or after the start of a day of their calendar. The index messages_conversation_created
// (migrations/048_search_filters.ts) finds it without walking the history.
import { dayStartMs } from '../../src/contract/local-day';
import { memberOf } from '../conversations/membership';
import type { Database } from '../db/database';
import { badRequest } from '../http/errors';
import { notHiddenBy } from './not-hidden';

/** The start of `day` (+ `plusDays`) in the zone `offset` minutes east of UTC, as the ISO text created_at holds. */
export function dayStartIso(day: string, offset: number, plusDays = 0): string {
  const ms = dayStartMs(day, offset);
  if (ms === null) throw badRequest('Дата — в виде ГГГГ-ММ-ДД');
  return new Date(ms + plusDays * 86_400_000).toISOString();
}

export async function messageAtDate(
  db: Database,
  userId: string,
  conversationId: string,
  day: string,
  offset: number,
): Promise<string | null> {
  // Authorised as reading the history: a non-member gets the history's 404.
  const me = await memberOf(db, conversationId, userId);
  const row = await db
    .selectFrom('messages')
    .select('id')
    .where('conversation_id', '=', conversationId)
    .where('created_at', '>=', dayStartIso(day, offset))
    .where('deleted_at', 'is', null)
    // As the history shows it: no thread replies, nothing the user hid, nothing before they joined.
    .where('thread_root_id', 'is', null)
    .where(notHiddenBy(userId, 'messages.id'))
    .$if(me.visibleFromSeq > 0, (x) => x.where('seq', '>', me.visibleFromSeq))
    .orderBy('created_at')
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}
