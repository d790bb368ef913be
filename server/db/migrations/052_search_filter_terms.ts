// The search index's documents gain their message's sender, chat, kind and time as terms (server/search/index-syntax.ts
// filterTerms): a search with «от:», «в:», «Тип» or «Дата» intersects them with its words inside the index rather than
// walking every match of the words (bench/README.md «Filtered queries»). Every indexed message is indexed again, and a
// change of any column a document is made of queues the message again; SQLite's table is made anew, as its tokenizer
// now keeps `_` inside a token. A larger history takes longer to upgrade: 2.9 s
// per 100,000 messages on SQLite, measured on a 2-core machine.
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import {
  drainBacklog,
  POSTGRES_UPDATE_TRIGGER,
  SQLITE_SEARCH_TABLE,
  SQLITE_UPDATE_TRIGGER,
  sqliteDocumentOf,
} from '../../search/search-index';

/** The table, document and update triggers before this migration, for its down. */
const OLD_TABLE = `CREATE VIRTUAL TABLE message_search USING fts5(terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0', prefix='2 3')`;
const OLD_SQLITE_TRIGGER = `CREATE TRIGGER message_search_update AFTER UPDATE OF content, deleted_at ON messages BEGIN
     DELETE FROM message_search WHERE rowid = old.seq;
     INSERT OR IGNORE INTO message_search_backlog (seq) VALUES (new.seq);
   END`;
const OLD_POSTGRES_TRIGGER =
  'CREATE TRIGGER message_search_update AFTER UPDATE OF content, deleted_at ON messages FOR EACH ROW EXECUTE FUNCTION message_search_enqueue()';
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

async function replaceUpdateTrigger(db: Kysely<unknown>, pg: boolean, trigger: string): Promise<void> {
  await sql.raw(`DROP TRIGGER IF EXISTS message_search_update${pg ? ' ON messages' : ''}`).execute(db);
  await sql.raw(trigger).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await replaceUpdateTrigger(db, pg, pg ? POSTGRES_UPDATE_TRIGGER : SQLITE_UPDATE_TRIGGER);
  if (pg) {
    // Each indexed message through the backlog again: the drain writes its document anew (ON CONFLICT updates).
    await sql`INSERT INTO message_search_backlog (seq) SELECT seq FROM message_search ON CONFLICT DO NOTHING`.execute(
      db,
    );
    await drainBacklog(db, { days: false });
  } else await rebuildSqlite(db, SQLITE_SEARCH_TABLE, sqliteDocumentOf('m'));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await replaceUpdateTrigger(db, pg, pg ? OLD_POSTGRES_TRIGGER : OLD_SQLITE_TRIGGER);
  // PostgreSQL: the filter terms stay in the tsvectors, where the earlier release's queries never reach them (no query
  // term of its has a `_`); SQLite's earlier tokenizer would split them into words, so its table is made as it was.
  if (!pg) await rebuildSqlite(db, OLD_TABLE, OLD_DOCUMENT);
}
