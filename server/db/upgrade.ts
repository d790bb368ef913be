// Upgrading the schema without losing data, before the server accepts requests (docs/administration.md «Обновление»):
// read what the database has applied; refuse a database a newer release wrote (a downgrade) without touching it;
// before migrating a database that has data, take a copy (SQLite: an online backup into DATA_DIR/backups) or find one
// (PostgreSQL: a pg_dump younger than a day there, unless UPGRADE_WITHOUT_BACKUP=1); then migrate. A failed
// migration leaves the database as it was: PostgreSQL runs all pending migrations in one transaction (Kysely's
// Migrator does, the dialect having transactional DDL) and rolls it back; SQLite's migrations run without one
// (Kysely's SQLite adapter declares no transactional DDL), so the copy just taken is put back (restoreSqliteCopy,
// once the file is closed). Every refusal and failure is one Russian sentence with what to do.
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import type SQLite from 'better-sqlite3';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { backupsDir, isPreUpgradeCopy, PRE_UPGRADE_KEEP } from '../backups/schedule';
import { latestMigration, RELEASE_VERSION, schemaNumber } from '../version';
import { migrations as knownMigrations } from './migrations';
import type { DB } from './schema';

/** The schema this release brings: the number of its latest migration. */
export const SCHEMA_VERSION = schemaNumber(latestMigration(Object.keys(knownMigrations))) as string;

/** How old a PostgreSQL dump may be for an upgrade to go ahead without UPGRADE_WITHOUT_BACKUP. */
export const BACKUP_MAX_AGE_MS = 24 * 3600 * 1000;

/** Names of the files a PostgreSQL upgrade accepts as its copy (pg_dump's custom or plain format). */
const DUMP_NAME = /\.(dump|pgdump|sql|sql\.gz)$/i;

/** A start the server refuses, with the sentence the operator reads (server/startup.ts prints it without a trace). */
export class StartRefused extends Error {}

/** A migration failed; the database is as it was before the upgrade (or is put back from `copy` on SQLite). */
export class UpgradeFailed extends StartRefused {
  constructor(
    message: string,
    readonly copy: string | null,
  ) {
    super(message);
  }
}

export interface UpgradeDeps {
  /** Where migrations run (on PostgreSQL the migration pool, without statement time limits). */
  db: Kysely<DB>;
  dialect: 'sqlite' | 'postgres';
  /** SQLite: the open file, for the online copy. Null on PostgreSQL. */
  sqlite: SQLite.Database | null;
  dataDir: string;
  withoutBackup: boolean;
  /** The release's migrations; a test hands in a list with a failing one. */
  migrations: Record<string, Migration>;
  now: () => number;
  log: (line: string) => void;
}

export interface UpgradeResult {
  /** The latest migration applied before, and after. */
  from: string | null;
  to: string | null;
  /** The copy taken (SQLite) or found (PostgreSQL) before migrating; null when nothing needed migrating. */
  copy: string | null;
}

/** The directory of automatic copies and of the dumps a PostgreSQL upgrade looks for. */
export { backupsDir };

export async function upgradeSchema(deps: UpgradeDeps): Promise<UpgradeResult> {
  const applied = await appliedMigrations(deps.db);
  refuseDowngrade(applied, deps.migrations);
  const known = Object.keys(deps.migrations);
  const pending = known.filter((name) => !applied.includes(name));
  const from = latestMigration(applied);
  const to = latestMigration(known);
  if (pending.length === 0) return { from, to: from, copy: null };
  // An empty database has nothing to lose: a first start creates the schema without a copy.
  const copy = applied.length === 0 ? null : await copyBeforeUpgrade(deps, from, to);
  if (copy) {
    deps.log(`Обновление схемы базы: ${schemaNumber(from)} → ${schemaNumber(to)}, копия: ${copy}`);
  } else if (applied.length > 0) {
    deps.log(
      `Обновление схемы базы: ${schemaNumber(from)} → ${schemaNumber(to)}, без копии (UPGRADE_WITHOUT_BACKUP=1)`,
    );
  }
  const migrator = new Migrator({
    db: deps.db,
    provider: { getMigrations: async () => deps.migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '?';
    throw upgradeFailure(deps, { from, to, failed, copy, cause: error });
  }
  return { from, to, copy };
}

/** The names in the migration table, or none when the database is new. */
export async function appliedMigrations(db: Kysely<DB>): Promise<string[]> {
  if (!(await hasMigrationTable(db))) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return rows.rows.map((r) => r.name);
}

async function hasMigrationTable(db: Kysely<DB>): Promise<boolean> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  return tables.some((t) => t.name === 'kysely_migration');
}

/** A migration this release does not know means a newer release wrote the database: never touch it. */
function refuseDowngrade(applied: string[], known: Record<string, Migration>) {
  const unknown = applied.filter((name) => !(name in known));
  if (unknown.length === 0) return;
  const theirs = schemaNumber(latestMigration(applied));
  const ours = schemaNumber(latestMigration(Object.keys(known)));
  throw new StartRefused(
    `База данных записана более новой версией Беседы (схема ${theirs}), а эта версия ${RELEASE_VERSION} знает схему только до ${ours}: запустите ту новую версию или восстановите копию, сделанную до обновления (docs/administration.md, «Обновление»); база не тронута.`,
  );
}

/** SQLite: an online copy into DATA_DIR/backups; PostgreSQL: a recent dump there, or the operator's waiver. */
async function copyBeforeUpgrade(deps: UpgradeDeps, from: string | null, to: string | null): Promise<string | null> {
  const dir = backupsDir(deps.dataDir);
  if (deps.sqlite) {
    fs.mkdirSync(dir, { recursive: true });
    const stamp = new Date(deps.now())
      .toISOString()
      .replace(/:/g, '-')
      .replace(/\.\d+Z$/, 'Z');
    const file = path.join(dir, `before-upgrade-${stamp}-${schemaNumber(from)}-to-${schemaNumber(to)}.sqlite`);
    await deps.sqlite.backup(file, { progress: () => 0x7fffffff });
    // One file that stands alone: opening it later (to look, or to put it back) leaves no -wal/-shm beside it.
    const copy = new Sqlite(file, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    prunePreUpgradeCopies(deps.dataDir);
    return file;
  }
  if (deps.withoutBackup) return null;
  const dump = recentDump(dir, deps.now());
  if (dump) return dump;
  throw new StartRefused(
    `Обновление схемы базы PostgreSQL ${schemaNumber(from)} → ${schemaNumber(to)} не начато: в ${dir} нет копии моложе суток. Сделайте её (pg_dump -Fc -f "${path.join(dir, 'messenger-ГГГГ-ММ-ДД.dump')}" "$DATABASE_URL") и запустите снова, или запустите с UPGRADE_WITHOUT_BACKUP=1, если копия хранится в другом месте.`,
  );
}

/**
 * Deletes all but the newest PRE_UPGRADE_KEEP copies taken before migrating (their names sort as their times);
 * after each new copy and with every scheduled backup. The names deleted.
 */
export function prunePreUpgradeCopies(dataDir: string): string[] {
  const dir = backupsDir(dataDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const old = names.filter(isPreUpgradeCopy).sort().reverse().slice(PRE_UPGRADE_KEEP);
  for (const name of old) fs.rmSync(path.join(dir, name), { force: true });
  return old;
}

/** The newest pg_dump file in `dir` modified within the last day, if any. */
export function recentDump(dir: string, now: number): string | null {
  let best: { file: string; at: number } | null = null;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  for (const name of names) {
    if (!DUMP_NAME.test(name)) continue;
    const file = path.join(dir, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size === 0) continue;
    const at = stat.mtimeMs;
    if (now - at > BACKUP_MAX_AGE_MS || at - now > BACKUP_MAX_AGE_MS) continue;
    if (!best || at > best.at) best = { file, at };
  }
  return best?.file ?? null;
}

function upgradeFailure(
  deps: Pick<UpgradeDeps, 'dialect' | 'dataDir'>,
  o: { from: string | null; to: string | null; failed: string; copy: string | null; cause: unknown },
): UpgradeFailed {
  const reason = (o.cause as Error)?.message ?? String(o.cause);
  const head = `Обновление схемы базы ${schemaNumber(o.from)} → ${schemaNumber(o.to)} не удалось на шаге ${o.failed} (${reason})`;
  if (deps.dialect === 'postgres') {
    return new UpgradeFailed(
      `${head}; все шаги отменены, база осталась на схеме ${schemaNumber(o.from)}. Вернитесь на прежнюю версию сервера и запустите её${o.copy ? `; копия базы: ${o.copy} (pg_restore --clean --no-owner -d "$DATABASE_URL" "${o.copy}")` : ''}.`,
      o.copy,
    );
  }
  if (!o.copy)
    return new UpgradeFailed(
      `${head}; база была пуста, удалите ${deps.dataDir}/messenger.sqlite и запустите снова.`,
      null,
    );
  return new UpgradeFailed(
    `${head}; база возвращена к копии ${o.copy} (схема ${schemaNumber(o.from)}). Вернитесь на прежнюю версию сервера и запустите её; если база повреждена, остановите сервер и верните копию вручную: cp "${o.copy}" "${path.join(deps.dataDir, 'messenger.sqlite')}" и удалите messenger.sqlite-wal и messenger.sqlite-shm.`,
    o.copy,
  );
}

/**
 * Puts the copy taken before a failed SQLite upgrade back in place of the database, once its file is closed:
 * the copy is written beside it and renamed over it, and the old log files go (they belong to the failed state).
 */
export function restoreSqliteCopy(databaseFile: string, copy: string): void {
  const staged = `${databaseFile}.restoring`;
  fs.copyFileSync(copy, staged);
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(databaseFile + suffix, { force: true });
  fs.renameSync(staged, databaseFile);
}

/**
 * The schema the database in DATA_DIR / DATABASE_URL is at, read without writing anything (SQLite opened read-only):
 * the latest applied migration's name, null for an empty or absent database.
 */
export async function databaseSchema(config: { dataDir: string; databaseUrl: string | null }): Promise<string | null> {
  const latest = 'select name from kysely_migration order by name desc limit 1';
  if (config.databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const present = await client.query("select to_regclass('kysely_migration') is not null as present");
      if (!present.rows[0]?.present) return null;
      return ((await client.query(latest)).rows[0]?.name as string | undefined) ?? null;
    } finally {
      await client.end();
    }
  }
  const file = path.join(config.dataDir, 'messenger.sqlite');
  if (!fs.existsSync(file)) return null;
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!table) return null;
    return (db.prepare(latest).get() as { name: string } | undefined)?.name ?? null;
  } finally {
    db.close();
  }
}
