// «История для новых участников» (docs/groups.md): where a member who joins now starts to see the group, and where
// their read cursor starts. Every way into a group goes through joinPoint — being added, an invite link, coming
// back after leaving, and any later one — so they cannot disagree.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';

type Tx = Transaction<DB> | Kysely<DB>;

/** What a new membership row starts with. */
export interface JoinPoint {
  /** The member sees the messages after this seq only: 0 is the whole history. */
  visible_from_seq: number;
  /** Their read cursor: what was written before they came is not news to them, whatever they may read. */
  last_read_seq: number;
  /** Where they came in: the receipts of earlier messages do not count them. */
  joined_seq: number;
}

/**
 * The join point for a group as it is now: with «Видна» the whole history (as in Telegram, also for someone who
 * was removed before and comes back: the group chose to show its past to whoever is in it), with «Скрыта» (and
 * always in a secret chat, whose keys cannot reach the past) only what comes after `newestSeq`.
 */
export function visibleFromOnJoin(group: { history_visible: number; secret: number }, newestSeq: number): JoinPoint {
  const whole = Number(group.history_visible) === 1 && Number(group.secret) !== 1;
  return { visible_from_seq: whole ? 0 : newestSeq, last_read_seq: newestSeq, joined_seq: newestSeq };
}

/** Reads the group's setting and its newest message inside the joining transaction, and gives the join point. */
export async function joinPoint(trx: Tx, conversationId: string): Promise<JoinPoint> {
  const group = await trx
    .selectFrom('conversations')
    .select(['history_visible', 'secret'])
    .where('id', '=', conversationId)
    .executeTakeFirstOrThrow();
  const newest = await trx
    .selectFrom('messages')
    .select((eb) => eb.fn.max('seq').as('s'))
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  return visibleFromOnJoin(group, Number(newest?.s ?? 0));
}
