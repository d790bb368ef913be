// «Дата» in a search walks only the seqs its days can hold (server/search/message-days.ts): each UTC day's lowest
// and highest seq, filled here from the messages there are. The year, month and day terms migration 052 put into
// the index's documents are no longer read; new documents leave them out, and those written stay until the message
// is indexed again.
import { type Kysely, sql } from 'kysely';
import { MESSAGE_DAYS_DDL } from '../../search/message-days';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(MESSAGE_DAYS_DDL).execute(db);
  await sql`INSERT INTO message_days (day, first_seq, last_seq)
    SELECT substr(created_at, 1, 10), min(seq), max(seq) FROM messages GROUP BY 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE message_days`.execute(db);
}
