// The search index's documents gain their message's sender, chat and kind as terms (server/search/index-syntax.ts
// filterTerms): a search with «от:», «в:» or «Тип» intersects them with its words inside the index rather than walking
// every match of the words (bench/README.md «Filtered queries»). Every indexed message is indexed again; SQLite's
// table is made anew, as its tokenizer now keeps `_` inside a token. A larger history takes longer to upgrade: 1.9 s
// per 100,000 messages on SQLite, measured on a 2-core machine.
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { drainBacklog, SQLITE_SEARCH_TABLE, sqliteDocumentOf } from '../../search/search-index';

/** The table and document before this migration, for its down. */
const OLD_TABLE = `CREATE VIRTUAL TABLE message_search USING fts5(terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0', prefix='2 3')`;
const OLD_DOCUMENT = `search_terms(m.content, CASE WHEN m.type = 'TEXT' THEN NULL ELSE (SELECT group_concat(u.original_name, char(10)) FROM message_attachments a JOIN uploads u ON u.id = a.upload_id WHERE a.message_id = m.id) END)`;

/** SQLite: the table made again and filled from the messages; those waiting in the backlog are the drain's. */
async function rebuildSqlite(db: Kysely<unknown>, table: string, document: string): Promise<void> {
  await sql`DROP TABLE message_search`.execute(db);
  await sql.raw(table).execute(db);
  await sql
    .raw(
      `INSERT INTO message_search (rowid, terms) SELECT m.seq, ${document} FROM messages m
       WHERE m.deleted_at IS NULL AND m.type <> 'ENCRYPTED' AND m.seq NOT IN (SELECT seq FROM message_search_backlog)`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Each indexed message through the backlog again: the drain writes its document anew (ON CONFLICT updates).
    await sql`INSERT INTO message_search_backlog (seq) SELECT seq FROM message_search ON CONFLICT DO NOTHING`.execute(
      db,
    );
    await drainBacklog(db);
  } else await rebuildSqlite(db, SQLITE_SEARCH_TABLE, sqliteDocumentOf('m'));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL: the filter terms stay in the tsvectors, where the earlier release's queries never reach them (no query
  // term of its has a `_`); SQLite's earlier tokenizer would split them into words, so its table is made as it was.
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await rebuildSqlite(db, OLD_TABLE, OLD_DOCUMENT);
}
