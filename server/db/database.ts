// Opens the database: PostgreSQL when DATABASE_URL is set, else a SQLite file (WAL, foreign keys on)
// in the data directory. Migrations run before the server accepts requests.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type Driver,
  Kysely,
  type LogEvent,
  type Migration,
  PostgresDialect,
  SqliteDialect,
  type SqliteDatabase,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { registerSearchFunction } from '../search/search-index';
import { BACKGROUND_STATEMENT } from './background';
import {
  type Checkpointer,
  FALLBACK_AUTOCHECKPOINT_PAGES,
  JOURNAL_SIZE_LIMIT_BYTES,
  startCheckpointer,
} from './checkpointer';
import { migrations as releaseMigrations } from './migrations';
import type { DB } from './schema';
import { restoreSqliteCopy, StartRefused, UpgradeFailed, upgradeSchema } from './upgrade';

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

/** BEGIN, COMMIT, ROLLBACK and savepoints as Kysely's drivers issue them. */
const TRANSACTION_CONTROL = /^\s*(begin|start transaction|commit|rollback|savepoint|release savepoint)\b/i;

/** What opening may be handed besides the configuration: the upgrade's clock and log, a test's migrations. */
export interface OpenOptions {
  now?: () => number;
  log?: (line: string) => void;
  /** The migrations to bring the schema to (the release's own unless a test hands in others). */
  migrations?: Record<string, Migration>;
}

export async function openDatabase(
  config: Config,
  options: OpenOptions = {},
): Promise<{ db: Database; dialect: Dialect }> {
  let db: Database;
  let migrationDb: Database | null = null;
  let dialect: Dialect;
  const counter = { n: 0 };
  const log = (event: LogEvent) => {
    // Background upkeep (the search backlog's timer) is not work a request did: queryCount leaves it out. Nor does
    // it count transaction control: Kysely issues BEGIN and COMMIT unmarked, so on PostgreSQL the timer's drain
    // transaction landed in whatever request was being counted.
    const text = event.query.sql;
    if (!text.startsWith(BACKGROUND_STATEMENT) && !TRANSACTION_CONTROL.test(text)) counter.n++;
  };
  if (config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    dialect = 'postgres';
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: guardedPool(config, config.databaseUrl) }), log });
    // Migrations may outlast a request's statement timeout (an index on a large table): a pool of their own, without it.
    migrationDb = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: guardedPool(config, config.databaseUrl, { max: 1, timeouts: false }) }),
    });
  } else if (config.databaseUrl) {
    throw new StartRefused(
      'DATABASE_URL должен начинаться с postgres:// (или не задавайте его: тогда база — файл SQLite в DATA_DIR).',
    );
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(config.dataDir, { recursive: true });
    const fileName = path.join(config.dataDir, 'messenger.sqlite');
    const file = new SQLite(fileName);
    file.pragma('journal_mode = WAL');
    file.pragma('foreign_keys = ON');
    // A lock held longer than this (another process, a backup) answers 503 rather than stalling the request.
    file.pragma(`busy_timeout = ${config.sqliteBusyTimeoutMs}`);
    // NORMAL: a commit is in the WAL file before the answer, so a crash of the process loses nothing; only
    // losing power (or the OS) can drop the last commits. FULL syncs the WAL on every commit and keeps those
    // too (docs/behaviour.md §10.15 Durability; bench:messages measures both).
    file.pragma(`synchronous = ${config.sqliteSynchronous}`);
    // Checkpoints run in a worker (checkpointer.ts), not inside a commit on the event loop.
    file.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    // After a burst the log is cut back to this size when it restarts, instead of keeping its largest size for ever.
    file.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    // The search index's triggers stem with it (server/search/search-index.ts).
    registerSearchFunction(file);
    db = new Kysely<DB>({
      dialect: new CheckpointedSqliteDialect(reusingStatements(file), startCheckpointer(fileName)),
      log,
    });
    sqliteFiles.set(db, file);
  }
  queriesRun.set(db, counter);
  try {
    await upgradeSchema({
      db: migrationDb ?? db,
      dialect,
      sqlite: sqliteFiles.get(db) ?? null,
      dataDir: config.dataDir,
      withoutBackup: config.upgradeWithoutBackup,
      migrations: options.migrations ?? releaseMigrations,
      now: options.now ?? Date.now,
      log: options.log ?? ((line) => console.log(line)),
    });
  } catch (err) {
    await migrationDb?.destroy().catch(() => {});
    await db.destroy().catch(() => {});
    // SQLite ran the failed migration without a transaction: the copy taken before it goes back in place.
    if (err instanceof UpgradeFailed && err.copy && dialect === 'sqlite') {
      restoreSqliteCopy(path.join(config.dataDir, 'messenger.sqlite'), err.copy);
    }
    throw err;
  }
  await migrationDb?.destroy();
  return { db, dialect };
}

/**
 * A pg client that a lost database cannot take the process down with. pg emits 'error' on a client whose socket
 * dies (reset, server shut down); pg-pool listens only while the client is idle, so one checked out by a request
 * had no listener and Node ended the process. Here the error is heard; the query in flight is rejected with it
 * (the request answers 503) and pg-pool discards the client on release. A query that times out on a stalled
 * network (packets vanish, nothing resets) leaves pg waiting for its answer on a connection that will never give
 * one: the socket is destroyed, which fails what is queued behind it (Kysely's ROLLBACK) at once.
 */
class GuardedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {});
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    const drop = () =>
      (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    (this as unknown as { query: unknown }).query = (...args: unknown[]) => {
      const pending = query(...args);
      if (!(pending instanceof Promise)) return pending;
      return pending.catch((err: unknown) => {
        if ((err as Error)?.message === 'Query read timeout') drop();
        throw err;
      });
    };
  }
}

/** The pool of a PostgreSQL database with its time limits (docs/behaviour.md §10.22 Database outage). */
function guardedPool(
  config: Config,
  connectionString: string,
  { max = 10, timeouts = true }: { max?: number; timeouts?: boolean } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    Client: GuardedClient as unknown as new () => pg.ClientBase,
    // Opening a connection, and waiting for a free one when all are busy.
    connectionTimeoutMillis: config.databaseConnectTimeoutMs,
    ...(timeouts
      ? {
          // The server cancels a statement running longer (57014), and ends a session left in a transaction
          // that long (its client is gone or stalled), releasing its locks.
          statement_timeout: config.databaseQueryTimeoutMs,
          idle_in_transaction_session_timeout: config.databaseQueryTimeoutMs,
          // The client stops waiting as long: on a stalled network no answer, not even the cancel, comes back.
          query_timeout: config.databaseQueryTimeoutMs,
        }
      : {}),
    // Idle connections to a vanished server are found out by TCP instead of at their next use.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle connection the server ends (a restart, an administrator's terminate) is dropped and replaced by the
  // pool on next use; without a listener, pg raises it as an uncaught error and the process would exit.
  pool.on('error', (err) => console.warn(`PostgreSQL dropped an idle connection: ${err.message}`));
  return pool;
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
    // IMMEDIATE: a transaction takes the write lock when it begins. Another connection (a history import's batch
    // worker, server/imports/batch-worker.ts) may commit between a deferred transaction's first read and its first
    // write, and SQLite then refuses the write at once (SQLITE_BUSY_SNAPSHOT) instead of waiting for the lock.
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
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
