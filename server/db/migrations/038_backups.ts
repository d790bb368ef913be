// Backups the server makes by itself (docs/administration.md «Резервные копии по расписанию»): one row per run.
// `slot` is the scheduled time the run is for: its unique index lets exactly one process of several take a slot
// (an insert that conflicts stores nothing); a run started by hand has none. The rows outlive restarts, so every
// process shows the same last backup on the console and in /metrics.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('backup_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slot', 'text', (c) => c.unique())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint')
    .addColumn('failure', 'text')
    .execute();
  await db.schema.createIndex('backup_runs_started').on('backup_runs').column('started_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('backup_runs').execute();
}
