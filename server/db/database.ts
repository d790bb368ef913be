// Opens the database: PostgreSQL when DATABASE_URL is set, else a SQLite file (WAL, foreign keys on)
// in the data directory. Migrations run before the server accepts requests.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { migrations } from './migrations';
import type { DB } from './schema';

export type Database = Kysely<DB>;
export type Dialect = 'sqlite' | 'postgres';

const queriesRun = new WeakMap<object, { n: number }>();

/** How many statements this database handle has executed (tests use it to prove lists don't query per row). */
export function queryCount(db: Database): number {
  return queriesRun.get(db)?.n ?? 0;
}

export async function openDatabase(config: Config): Promise<{ db: Database; dialect: Dialect }> {
  let db: Database;
  let dialect: Dialect;
  const counter = { n: 0 };
  const log = () => {
    counter.n++;
  };
  if (config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    dialect = 'postgres';
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
  } else if (config.databaseUrl) {
    throw new Error('DATABASE_URL must start with postgres:// (leave it unset for the embedded SQLite file)');
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(config.dataDir, { recursive: true });
    const file = new SQLite(path.join(config.dataDir, 'messenger.sqlite'));
    file.pragma('journal_mode = WAL');
    file.pragma('foreign_keys = ON');
    file.pragma('busy_timeout = 5000');
    file.pragma('synchronous = NORMAL');
    db = new Kysely<DB>({ dialect: new SqliteDialect({ database: file }), log });
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

/** True when err is a unique-constraint violation on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
