// Keeps the search index in step with the messages table, from the database itself, the same way on both
// databases: triggers put the seq of every written, edited or deleted message into message_search_backlog in
// the writing transaction (nothing is missed, whatever code runs the statement), and the backlog is indexed in
// batches — before every search and every quarter second (drainSqliteBacklog, drainBacklog) — so a search always sees
// every message committed before it. An edit or a delete takes the old text out of the index at once, in its transaction.
//
// Why batches: the index's work per commit (a new segment, its merges) is most of what indexing costs; a commit
// per batch instead of one per send cuts indexing's CPU per send by two thirds (bench:search). Why small slices:
// SQLite's work is synchronous, so a slice holds the event loop, and sends waiting behind it see that as latency.
//
// SQLite: an FTS5 table (rowid = messages.seq), filled through search_terms(), a SQL function registered on
// the connection (registerSearchFunction), which stems in this process with morphology.ts.
// PostgreSQL: a table of tsvectors built here (GIN index).
//
// A secret chat's ENCRYPTED messages pass through the backlog and are never indexed: their content is ciphertext.
// A history import indexes its own batches in their transactions, stemmed in its worker thread, and takes them out
// of the backlog there (server/imports/batch-worker-thread.ts, import-runner.ts).
import type SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { BACKGROUND_STATEMENT } from '../db/background';
import { filterTerms, indexDocument, tsVector } from './index-syntax';
import { noteDays, sqliteNoteDays } from './message-days';
import { indexTerms, searchDocument } from './morphology';

/**
 * The SQL function the SQLite index is filled through: (content, file names or null[, sender, chat, type]) →
 * stems separated by spaces, then the message's filter terms when it is given them (migration 052's documents; the
 * two-argument form is the documents before it, for that migration's down; a sixth argument, the time 052 passed,
 * is no longer read).
 */
export const SEARCH_TERMS_FUNCTION = 'search_terms';

export function registerSearchFunction(file: SQLite.Database): void {
  file.function(SEARCH_TERMS_FUNCTION, { deterministic: true, varargs: true }, (...args: unknown[]) => {
    const [content, names, sender, conversation, type] = args;
    const stems = indexTerms(searchDocument(String(content ?? ''), names == null ? null : String(names)));
    if (args.length < 5) return stems;
    return indexDocument(
      stems,
      filterTerms({
        senderId: sender == null ? null : String(sender),
        conversationId: String(conversation),
        type: String(type),
      }),
    );
  });
}

/** The names of message `alias`'s files, one per line (null for a text message, which has none). */
const fileNamesOf = (alias: string) =>
  `CASE WHEN ${alias}.type = 'TEXT' THEN NULL ELSE (SELECT group_concat(u.original_name, char(10)) FROM message_attachments a JOIN uploads u ON u.id = a.upload_id WHERE a.message_id = ${alias}.id) END`;

/** What the SQLite index holds for message `alias`: its words, then its sender, chat and kind. */
export const sqliteDocumentOf = (alias: string) =>
  `${SEARCH_TERMS_FUNCTION}(${alias}.content, ${fileNamesOf(alias)}, ${alias}.sender_id, ${alias}.conversation_id, ${alias}.type)`;

/**
 * The columns whose change makes a message's document again: its text and what its filter terms are made of, and
 * its time, whose day's seq span the drain widens (message-days.ts).
 */
const INDEXED_COLUMNS = 'content, deleted_at, sender_id, conversation_id, type, created_at';

/** SQLite's trigger that takes an edited message out of the index and queues it again. */
export const SQLITE_UPDATE_TRIGGER = `CREATE TRIGGER message_search_update AFTER UPDATE OF ${INDEXED_COLUMNS} ON messages BEGIN
     DELETE FROM message_search WHERE rowid = old.seq;
     INSERT OR IGNORE INTO message_search_backlog (seq) VALUES (new.seq);
   END`;

/** PostgreSQL's trigger for the same (message_search_enqueue deletes the old document in the writing transaction). */
export const POSTGRES_UPDATE_TRIGGER = `CREATE TRIGGER message_search_update AFTER UPDATE OF ${INDEXED_COLUMNS} ON messages FOR EACH ROW EXECUTE FUNCTION message_search_enqueue()`;

/**
 * The FTS5 table. `_` is a token character: the filter terms (`_s_…`) stay one token each, and no stem has one.
 * Contentless (the text is in messages already) with deletes; prefix indexes make "соб…" one lookup.
 */
export const SQLITE_SEARCH_TABLE = `CREATE VIRTUAL TABLE message_search USING fts5(terms, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 tokenchars '_'", prefix='2 3')`;

/** Statements of the SQLite index: the FTS5 table, the backlog and the triggers that keep them (migration 005). */
export const SQLITE_INDEX_DDL = [
  SQLITE_SEARCH_TABLE,
  'CREATE TABLE message_search_backlog (seq INTEGER PRIMARY KEY)',
  `CREATE TRIGGER message_search_insert AFTER INSERT ON messages WHEN new.deleted_at IS NULL BEGIN
     INSERT OR IGNORE INTO message_search_backlog (seq) VALUES (new.seq);
   END`,
  SQLITE_UPDATE_TRIGGER,
  `CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN
     DELETE FROM message_search WHERE rowid = old.seq;
     DELETE FROM message_search_backlog WHERE seq = old.seq;
   END`,
  // A file's name is searchable: the message is indexed again with it.
  `CREATE TRIGGER message_search_attachment AFTER INSERT ON message_attachments BEGIN
     DELETE FROM message_search WHERE rowid = (SELECT seq FROM messages WHERE id = new.message_id);
     INSERT OR IGNORE INTO message_search_backlog (seq) SELECT seq FROM messages WHERE id = new.message_id;
   END`,
];

/** Statements of the PostgreSQL index: the tsvector table with its GIN index, the backlog and its triggers. */
export const POSTGRES_INDEX_DDL = [
  `CREATE TABLE message_search (
     seq integer PRIMARY KEY REFERENCES messages(seq) ON DELETE CASCADE,
     terms tsvector NOT NULL
   )`,
  'CREATE INDEX message_search_terms ON message_search USING gin (terms)',
  // No foreign key: a trigger's insert must not wait on locks of messages, and a seq whose message is gone is skipped.
  'CREATE TABLE message_search_backlog (seq integer PRIMARY KEY)',
  `CREATE FUNCTION message_search_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_TABLE_NAME = 'message_attachments' THEN
       INSERT INTO message_search_backlog (seq) SELECT seq FROM messages WHERE id = NEW.message_id ON CONFLICT DO NOTHING;
     ELSE
       -- The old text stops matching at once, in the transaction that changed it.
       IF TG_OP = 'UPDATE' THEN DELETE FROM message_search WHERE seq = NEW.seq; END IF;
       INSERT INTO message_search_backlog (seq) VALUES (NEW.seq) ON CONFLICT DO NOTHING;
     END IF;
     RETURN NULL;
   END $$`,
  'CREATE TRIGGER message_search_insert AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION message_search_enqueue()',
  POSTGRES_UPDATE_TRIGGER,
  'CREATE TRIGGER message_search_attachment AFTER INSERT ON message_attachments FOR EACH ROW EXECUTE FUNCTION message_search_enqueue()',
];

/** Backlog rows indexed per PostgreSQL batch: their stems are computed here, between awaits. */
const DRAIN_BATCH = 250;
/**
 * Backlog rows indexed per SQLite slice. A slice is one native transaction that holds the event loop (stemming in
 * search_terms, the FTS5 insert and commit): about 2–3 ms for 100 messages, where a second's 1000 at once held it
 * for 20–30 ms and that wait became the send path's p99.
 */
export const SQLITE_DRAIN_SLICE = 200;

export interface SqliteDrain {
  /** Statements run (for the request's query count). */
  statements: number;
  /** Whether backlog rows remain after this slice. */
  more: boolean;
}

/**
 * Indexes up to `limit` of SQLite's backlog rows, oldest first, in one native transaction. Call it only while
 * holding Kysely's single connection (see sqliteHandle in server/db/database.ts), and again while `more`.
 */
export function drainSqliteBacklog(file: SQLite.Database, limit = SQLITE_DRAIN_SLICE): SqliteDrain {
  let statements = drainStatements.get(file);
  if (!statements) {
    const pending = file.prepare('SELECT EXISTS (SELECT 1 FROM message_search_backlog) AS waiting');
    const slice = '(SELECT seq FROM message_search_backlog ORDER BY seq LIMIT ?)';
    const move = file.prepare(
      `INSERT INTO message_search (rowid, terms) SELECT m.seq, ${sqliteDocumentOf('m')}
       FROM messages m WHERE m.seq IN ${slice} AND m.deleted_at IS NULL AND m.type <> 'ENCRYPTED'`,
    );
    const days = file.prepare(sqliteNoteDays(`seq IN ${slice}`));
    const clear = file.prepare(`DELETE FROM message_search_backlog WHERE seq IN ${slice}`);
    const drain = file.transaction((n: number) => {
      move.run(n);
      days.run(n);
      clear.run(n);
      return (pending.get() as { waiting: number }).waiting === 1;
    });
    statements = { pending, drain };
    drainStatements.set(file, statements);
  }
  if (!(statements.pending.get() as { waiting: number }).waiting) return { statements: 1, more: false };
  return { statements: 5, more: statements.drain(limit) };
}
const drainStatements = new WeakMap<
  SQLite.Database,
  { pending: SQLite.Statement; drain: (limit: number) => boolean }
>();

/**
 * Indexes the messages in PostgreSQL's backlog, batch by batch until it is empty. Run it inside a
 * transaction: a concurrent drain waits for this one's rows and finds them gone, so once either returns,
 * everything committed before it started is indexed. Returns how many messages were looked at.
 */
export async function drainBacklog(
  // biome-ignore lint/suspicious/noExplicitAny: runs on Kysely<DB> and on the migration's Kysely<unknown>
  db: Kysely<any>,
  /** days: false in the migrations before 053, which made message_days. */
  opts: { background?: boolean; days?: boolean } = {},
): Promise<number> {
  // The timer's drains are marked so that queryCount (server/db/database.ts) leaves them out.
  const mark = sql.raw(opts.background ? BACKGROUND_STATEMENT : '');
  let total = 0;
  for (;;) {
    const { rows: taken } = await sql<{ seq: number }>`${mark}
      DELETE FROM message_search_backlog
      WHERE seq IN (SELECT seq FROM message_search_backlog ORDER BY seq LIMIT ${DRAIN_BATCH})
      RETURNING seq`.execute(db);
    if (taken.length === 0) return total;
    total += taken.length;
    if (opts.days !== false)
      await noteDays(
        db,
        taken.map((r) => r.seq),
        mark,
      );
    const { rows } = await sql<DocumentRow & { seq: number }>`${mark}
      SELECT m.seq, m.content, m.sender_id, m.conversation_id, m.type,
        CASE WHEN m.type = 'TEXT' THEN NULL ELSE (
          SELECT string_agg(u.original_name, chr(10) ORDER BY a.position) FROM message_attachments a
          JOIN uploads u ON u.id = a.upload_id WHERE a.message_id = m.id) END AS names
      FROM messages m
      WHERE m.seq = ANY(${taken.map((r) => r.seq)}::int[]) AND m.deleted_at IS NULL AND m.type <> 'ENCRYPTED'`.execute(
      db,
    );
    if (rows.length === 0) continue;
    await sql`${mark}
      INSERT INTO message_search (seq, terms)
      SELECT s, t::tsvector FROM unnest(${rows.map((r) => r.seq)}::int[], ${rows.map((r) => tsVector(postgresDocument(r)))}::text[]) AS x(s, t)
      ON CONFLICT (seq) DO UPDATE SET terms = excluded.terms`.execute(db);
  }
}

/** What a message's index document is made of: its text and files' names, then its filter terms' columns. */
interface DocumentRow {
  content: string;
  names: string | null;
  sender_id: string | null;
  conversation_id: string;
  type: string;
}

/** What the PostgreSQL index holds for a message: its words, then its sender, chat and kind. */
export function postgresDocument(m: DocumentRow): string {
  return indexDocument(
    indexTerms(searchDocument(m.content, m.names)),
    filterTerms({ senderId: m.sender_id, conversationId: m.conversation_id, type: m.type }),
  );
}
