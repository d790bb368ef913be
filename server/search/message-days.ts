// «Дата» in a search: which seqs a date range can hold. For each UTC day, message_days keeps the lowest and highest
// seq of the messages written that day, written where messages reach the search index (the backlog's drains and a
// history import's batches), so a search drains first and sees every message committed before it. A range's days
// give one seq span, and the search walks only that span of the index or the messages table, newest first: a
// range far in the past skips every newer message instead of testing each (bench/README.md «Filtered queries»).
//
// The span is a superset: an import writes old days with new seqs, a message whose time changes leaves its old
// day's span as it was, and a deleted message is not taken out. The row conditions on created_at keep the results
// exact; a wider span costs only time.
import { type Kysely, sql } from 'kysely';

/** The table (migration 053). `day` is the UTC day of created_at, `YYYY-MM-DD`. */
export const MESSAGE_DAYS_DDL =
  'CREATE TABLE message_days (day text PRIMARY KEY, first_seq integer NOT NULL, last_seq integer NOT NULL)';

/** The UTC day of an ISO instant: its first ten characters, as created_at is always written in UTC (`…Z`). */
export const dayOf = (iso: string) => iso.slice(0, 10);

/**
 * SQLite: widens the spans of the days of the messages `where` selects (a condition on `seq`). The days go in order,
 * so two writers meet their rows in the same order.
 */
export const sqliteNoteDays = (where: string) =>
  `INSERT INTO message_days (day, first_seq, last_seq)
   SELECT substr(created_at, 1, 10), min(seq), max(seq) FROM messages WHERE ${where} GROUP BY 1 ORDER BY 1
   ON CONFLICT (day) DO UPDATE SET first_seq = min(first_seq, excluded.first_seq), last_seq = max(last_seq, excluded.last_seq)`;

/** PostgreSQL: the same for the messages of `seqs`, in the caller's transaction. */
// biome-ignore lint/suspicious/noExplicitAny: runs on Kysely<DB> and on a migration's Kysely<unknown>
export async function noteDays(db: Kysely<any>, seqs: number[], mark = sql``): Promise<void> {
  if (seqs.length === 0) return;
  await sql`${mark}
    INSERT INTO message_days (day, first_seq, last_seq)
    SELECT substr(created_at, 1, 10), min(seq), max(seq) FROM messages WHERE seq = ANY(${seqs}::int[]) GROUP BY 1 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET first_seq = LEAST(message_days.first_seq, excluded.first_seq),
      last_seq = GREATEST(message_days.last_seq, excluded.last_seq)`.execute(db);
}

/** The seqs [first, last] that messages written in [since, until) can have; `null` when no message was written then. */
export type SeqSpan = { first: number; last: number } | null;

/** The span of a date range (ISO instants, either open, not both). */
// biome-ignore lint/suspicious/noExplicitAny: any Kysely whose database has message_days
export async function seqSpan(db: Kysely<any>, since: string | undefined, until: string | undefined): Promise<SeqSpan> {
  // until is exclusive: its day is the day of the instant just before it.
  const lastDay = until === undefined ? undefined : dayOf(new Date(Date.parse(until) - 1).toISOString());
  const { rows } = await sql<{ first: number | null; last: number | null }>`
    SELECT min(first_seq) AS first, max(last_seq) AS last FROM message_days
    WHERE ${since === undefined ? sql`true` : sql`day >= ${dayOf(since)}`}
      AND ${lastDay === undefined ? sql`true` : sql`day <= ${lastDay}`}`.execute(db);
  const row = rows[0];
  return row?.first == null || row.last == null ? null : { first: Number(row.first), last: Number(row.last) };
}
