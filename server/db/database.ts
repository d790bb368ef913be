// Opens the database: PostgreSQL when DATABASE_URL is set, else a SQLite file (WAL, foreign keys on)
// in the data directory. Migrations run before the server accepts requests.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type Driver,
  Kysely,
  type LogEvent,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type SqliteDatabase,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { registerSearchFunction } from '../search/search-index';
import { BACKGROUND_STATEMENT } from './background';
import { type Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer';
import { migrations } from './migrations';
import type { DB } from './schema';

export type Database = Kysely<DB>;
export type Dialect = 'sqlite' | 'postgres';

const queriesRun = new WeakMap<object, { n: number }>();
const sqliteFiles = new WeakMap<object, SQLite.Database>();

/**
 * The better-sqlite3 handle under a SQLite database, for a hot path that runs its own prepared statements in
 * a native transaction. Use it only inside `db.connection().execute(…)`, which holds Kysely's lock on the
 * single connection, so no Kysely transaction is open on it meanwhile. Null on PostgreSQL.
 */
export function sqliteHandle(db: Database): SQLite.Database | null {
  return sqliteFiles.get(db) ?? null;
}

/** Statements a hot path ran on the better-sqlite3 handle itself, outside Kysely, so queryCount includes them. */
export function countNativeStatements(db: Database, n: number): void {
  const counter = queriesRun.get(db);
  if (counter) counter.n += n;
}

/** How many statements this database handle has executed (tests use it to prove lists don't query per row). */
export function queryCount(db: Database): number {
  return queriesRun.get(db)?.n ?? 0;
}

export async function openDatabase(config: Config): Promise<{ db: Database; dialect: Dialect }> {
  let db: Database;
  let dialect: Dialect;
  const counter = { n: 0 };
  const log = (event: LogEvent) => {
    // Background upkeep (the search backlog's timer) is not work a request did: queryCount leaves it out.
    if (!event.query.sql.startsWith(BACKGROUND_STATEMENT)) counter.n++;
  };
  if (config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    dialect = 'postgres';
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection the server ends (a restart, an administrator's terminate) is dropped and replaced by the
    // pool on next use; without a listener, pg raises it as an uncaught error and the process would exit.
    pool.on('error', (err) => console.warn(`PostgreSQL dropped an idle connection: ${err.message}`));
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
  } else if (config.databaseUrl) {
    throw new Error('DATABASE_URL must start with postgres:// (leave it unset for the embedded SQLite file)');
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(config.dataDir, { recursive: true });
    const fileName = path.join(config.dataDir, 'messenger.sqlite');
    const file = new SQLite(fileName);
    file.pragma('journal_mode = WAL');
    file.pragma('foreign_keys = ON');
    file.pragma('busy_timeout = 5000');
    // NORMAL: a commit is in the WAL file before the answer, so a crash of the process loses nothing; only
    // losing power (or the OS) can drop the last commits. FULL syncs the WAL on every commit and keeps those
    // too (docs/behaviour.md §10.15 Durability; bench:messages measures both).
    file.pragma(`synchronous = ${config.sqliteSynchronous}`);
    // Checkpoints run in a worker (checkpointer.ts), not inside a commit on the event loop.
    file.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    // The search index's triggers stem with it (server/search/search-index.ts).
    registerSearchFunction(file);
    db = new Kysely<DB>({
      dialect: new CheckpointedSqliteDialect(reusingStatements(file), startCheckpointer(fileName)),
      log,
    });
    sqliteFiles.set(db, file);
  }
  queriesRun.set(db, counter);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect };
}

/** How many compiled statements to keep: every query shape the app has, with room for IN lists of many lengths. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely asks better-sqlite3 to prepare (compile) every query anew, which was 13 % of the send path's CPU.
 * Statements are reusable, and the driver runs one query at a time on its single connection, so the most
 * recently used ones are kept by SQL text.
 */
function reusingStatements(file: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => file.close(),
    prepare(sql) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = file.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

/**
 * SQLite with its checkpointer: `db.destroy()` resolves only once the worker has closed its connection too, so
 * nothing touches the files after the server is closed (tests delete the data directory right then).
 */
class CheckpointedSqliteDialect extends SqliteDialect {
  constructor(
    database: SqliteDatabase,
    private readonly checkpointer: Checkpointer,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const destroy = driver.destroy.bind(driver);
    driver.destroy = async () => {
      await destroy();
      await this.checkpointer.close();
    };
    return driver;
  }
}

/** True when err is a unique-constraint violation on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
