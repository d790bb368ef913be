// History import (docs/behaviour.md §10.38, docs/history-import.md «Server»). `import_jobs` holds one upload of a
// Telegram or WhatsApp export from its analysis to the end: the stored file, what the analysis found, the importer's
// mapping, progress (`done`, committed with each batch, so a restarted server resumes after the last batch) and the
// lease (`claimed_at`, as scheduled_messages': one process of several runs a job). Imported messages carry the
// export's identity (`import_key`, `import_source_id`): the unique index makes a second import of the same export
// into the same chat store nothing. They take seqs below zero, handed out downwards by `import_seq_floor`, so they
// come before every message the chat had of its own, are never unread and never lift the chat in anyone's list.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    // Into this chat; null until a new group is made for it (`new_group` = 1).
    .addColumn('conversation_id', 'text')
    .addColumn('new_group', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text')
    .addColumn('chat_name', 'text')
    // JSON of the analysis: the export's chats and the chosen one's authors (with suggestions).
    .addColumn('chats', 'text')
    .addColumn('chat_id', 'text')
    .addColumn('authors', 'text')
    .addColumn('mapping', 'text')
    .addColumn('title', 'text')
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    // Messages of the export read and committed (skipped ones included): where a resumed run starts.
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    // Messages this job stored (not those an earlier import of the same export had).
    .addColumn('imported', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    // The export's identity once analysed: a hash of its kind, the chosen chat and its first message's time (the
    // same history exported twice is one export); a secret chat's comes from the browser.
    .addColumn('file_hash', 'text')
    .addColumn('file_size', 'integer', (c) => c.notNull().defaultTo(0))
    // The upper end of the seqs reserved for this job's messages (they take seq_top - total … seq_top).
    .addColumn('seq_top', 'integer')
    .addColumn('claimed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_jobs_by_user').on('import_jobs').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('import_jobs_by_status').on('import_jobs').columns(['status']).execute();

  await db.schema
    .createTable('import_seq_floor')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('floor', 'integer', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO import_seq_floor (id, floor) VALUES (1, 0)`.execute(db);

  for (const column of ['import_key', 'import_source_id', 'import_job_id', 'imported_author', 'imported_from']) {
    await db.schema.alterTable('messages').addColumn(column, 'text').execute();
  }
  // Rows without an import key are not concerned (NULLs are distinct in both databases).
  await db.schema
    .createIndex('messages_import_source')
    .unique()
    .on('messages')
    .columns(['conversation_id', 'import_key', 'import_source_id'])
    .execute();
  await db.schema.createIndex('messages_import_job').on('messages').column('import_job_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_import_job').execute();
  await db.schema.dropIndex('messages_import_source').execute();
  for (const column of ['imported_from', 'imported_author', 'import_job_id', 'import_source_id', 'import_key']) {
    await db.schema.alterTable('messages').dropColumn(column).execute();
  }
  await db.schema.dropTable('import_seq_floor').execute();
  await db.schema.dropTable('import_jobs').execute();
}
