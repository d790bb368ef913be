// Full-text search over messages (server/search/search-index.ts): the FTS5 table on SQLite or the tsvector
// table with a GIN index on PostgreSQL, the triggers that keep it, and the history written before it.
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { drainBacklog, POSTGRES_INDEX_DDL, SQLITE_INDEX_DDL, sqliteDocumentOf } from '../../search/search-index';

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of pg ? POSTGRES_INDEX_DDL : SQLITE_INDEX_DDL) await sql.raw(statement).execute(db);
  if (pg) {
    await sql`INSERT INTO message_search_backlog (seq) SELECT seq FROM messages WHERE deleted_at IS NULL`.execute(db);
    await drainBacklog(db, { days: false });
  } else {
    await sql
      .raw(
        `INSERT INTO message_search (rowid, terms) SELECT m.seq, ${sqliteDocumentOf('m')} FROM messages m WHERE m.deleted_at IS NULL`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const triggers = ['message_search_insert', 'message_search_update', 'message_search_attachment'];
  if (pg) {
    for (const t of triggers)
      await sql
        .raw(`DROP TRIGGER ${t} ON ${t.endsWith('attachment') ? 'message_attachments' : 'messages'}`)
        .execute(db);
    await sql`DROP FUNCTION message_search_enqueue()`.execute(db);
    await sql`DROP TABLE message_search_backlog`.execute(db);
  } else {
    for (const t of [...triggers, 'message_search_delete']) await sql.raw(`DROP TRIGGER ${t}`).execute(db);
    await sql`DROP TABLE message_search_backlog`.execute(db);
  }
  await sql`DROP TABLE message_search`.execute(db);
}
