// Reads the search index alone (no row conditions): how many messages' documents hold a term, on either database.
// Kysely<any>: the app's Kysely<DB> and a migration's Kysely<unknown> alike.
import { type Kysely, sql } from 'kysely';

export async function indexedWith(db: Kysely<any>, postgres: boolean, term: string): Promise<number> {
  const { rows } = postgres
    ? await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM message_search WHERE terms @@ ${`'${term}'`}::tsquery`.execute(db)
    : await sql<{
        n: number;
      }>`SELECT count(*) AS n FROM message_search WHERE message_search MATCH ${`"${term}"`}`.execute(db);
  return Number(rows[0]?.n);
}
