// Upgrading the schema without losing data (server/db/upgrade.ts), on SQLite and, with TEST_PG_URL, on PostgreSQL:
// a copy before migrating a database that has data and none for an empty one; PostgreSQL refusing without a recent
// dump; a database written by a newer release refused and left untouched (SQLite: byte-identical); a migration that
// fails half-way leaving tables and rows as they were. Migration lists are handed in (the release's, cut short, or
// with test-only steps); the clock is handed in too. Only the newest three copies are kept.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, type Migration, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { migrations as release } from '../../server/db/migrations';
import { StartRefused, UpgradeFailed } from '../../server/db/upgrade';
import { RELEASE_VERSION } from '../../server/version';
import { freshPostgres, usingPostgres } from './harness';

const NOW = Date.parse('2026-11-28T03:30:00Z');
const names = Object.keys(release);
const last = names[names.length - 1];
const lastNumber = last.slice(0, 3);
const previousNumber = names[names.length - 2].slice(0, 3);
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A data directory (and, with TEST_PG_URL, a database) of the test's own. */
async function place(withoutBackup = false) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-upgrade-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const pg = usingPostgres() ? await freshPostgres() : null;
  if (pg) cleanups.push(() => pg.drop());
  const config = loadConfig(
    {},
    { dataDir, databaseUrl: pg?.url ?? null, logLevel: 'silent', upgradeWithoutBackup: withoutBackup },
  );
  const lines: string[] = [];
  const open = async (migrations: Record<string, Migration>, now = NOW) => {
    const { db } = await openDatabase(config, { migrations, now: () => now, log: (l) => lines.push(l) });
    return db;
  };
  return { config, dataDir, lines, open, backups: () => listBackups(dataDir) };
}

const listBackups = (dataDir: string) =>
  fs.existsSync(path.join(dataDir, 'backups')) ? fs.readdirSync(path.join(dataDir, 'backups')) : [];

/** The release's migrations without the last one: a database an earlier release left. */
const earlier = Object.fromEntries(names.slice(0, -1).map((n) => [n, release[n]]));

/** A pg_dump file for the PostgreSQL upgrade to find, written `age` ms before NOW. */
function dump(dataDir: string, age = 0) {
  const dir = path.join(dataDir, 'backups');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'messenger-2026-11-28.dump');
  fs.writeFileSync(file, 'PGDMP');
  const at = new Date(NOW - age);
  fs.utimesSync(file, at, at);
  return file;
}

/** Every table of the database and every row of the ones that matter here, for before/after comparisons. */
async function snapshot(db: Kysely<any>, postgres: boolean) {
  const tables = postgres
    ? (
        await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`.execute(
          db,
        )
      ).rows
    : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by 1`.execute(db)).rows;
  const migrationsRows = (await sql`select name from kysely_migration order by name`.execute(db)).rows;
  const probe = tables.some((t) => t.name === 'probe')
    ? (await sql`select id, v from probe order by id`.execute(db)).rows
    : null;
  return { tables: tables.map((t) => t.name), migrationsRows, probe };
}

/** A test-only step that leaves data: a table with rows. */
const withProbe: Record<string, Migration> = {
  ...release,
  '900_probe': {
    async up(db) {
      await sql`create table probe (id integer primary key, v text not null)`.execute(db);
      await sql`insert into probe (id, v) values (1, 'один'), (2, 'два')`.execute(db);
    },
  },
};

describe('the copy before an upgrade', () => {
  it.skipIf(usingPostgres())('keeps the newest three copies, deleting older ones when it takes a new one', async () => {
    const p = await place();
    const first = await p.open(earlier);
    await first.destroy();
    fs.mkdirSync(path.join(p.dataDir, 'backups'));
    const older = [1, 2, 3, 4].map((m) => `before-upgrade-2026-0${m}-01T00-00-00Z-030-to-031.sqlite`);
    for (const name of [...older, 'messenger-2026-01-01.dump'])
      fs.writeFileSync(path.join(p.dataDir, 'backups', name), 'x');
    const db = await p.open(release);
    await db.destroy();
    expect(p.backups().sort()).toEqual(
      [
        `before-upgrade-2026-11-28T03-30-00Z-${previousNumber}-to-${lastNumber}.sqlite`,
        older[2],
        older[3],
        'messenger-2026-01-01.dump',
      ].sort(),
    );
  });

  it('is taken before migrating a database with data, and not for an empty one', async () => {
    const p = await place();
    const first = await p.open(earlier);
    await first.destroy();
    expect(p.backups()).toEqual([]);
    expect(p.lines).toEqual([]);

    if (usingPostgres()) {
      // No dump younger than a day: refused before anything changes, with what to do.
      dump(p.dataDir, 25 * 3600 * 1000);
      const refused = await p.open(release).catch((e) => e);
      expect(refused).toBeInstanceOf(StartRefused);
      expect(refused.message).toContain(`${previousNumber} → ${lastNumber} не начато`);
      expect(refused.message).toContain('UPGRADE_WITHOUT_BACKUP=1');
      const found = dump(p.dataDir, 3600 * 1000);
      const db = await p.open(release);
      expect((await snapshot(db, true)).migrationsRows.at(-1)).toEqual({ name: last });
      await db.destroy();
      expect(p.lines).toEqual([`Обновление схемы базы: ${previousNumber} → ${lastNumber}, копия: ${found}`]);
      return;
    }
    const db = await p.open(release);
    await db.destroy();
    const copies = p.backups();
    expect(copies).toEqual([`before-upgrade-2026-11-28T03-30-00Z-${previousNumber}-to-${lastNumber}.sqlite`]);
    const copy = path.join(p.dataDir, 'backups', copies[0]);
    expect(p.lines).toEqual([`Обновление схемы базы: ${previousNumber} → ${lastNumber}, копия: ${copy}`]);
    // The copy is the database as it was: at the earlier schema.
    const Sqlite = (await import('better-sqlite3')).default;
    const file = new Sqlite(copy, { readonly: true });
    const at = file.prepare('select max(name) as name from kysely_migration').get() as { name: string };
    file.close();
    expect(at.name).toBe(names[names.length - 2]);

    // Nothing to migrate: no copy and no line.
    const again = await p.open(release);
    await again.destroy();
    expect(p.backups()).toHaveLength(1);
    expect(p.lines).toHaveLength(1);
  });

  it.runIf(usingPostgres())('goes ahead on PostgreSQL without a dump when UPGRADE_WITHOUT_BACKUP=1', async () => {
    const p = await place(true);
    await (await p.open(earlier)).destroy();
    const db = await p.open(release);
    await db.destroy();
    expect(p.lines).toEqual([
      `Обновление схемы базы: ${previousNumber} → ${lastNumber}, без копии (UPGRADE_WITHOUT_BACKUP=1)`,
    ]);
  });
});

describe('a database written by a newer release', () => {
  it('is refused, naming both versions, and left as it was', async () => {
    const p = await place();
    const db = await p.open(release);
    await sql`insert into kysely_migration (name, timestamp) values ('099_future', ${new Date(NOW).toISOString()})`.execute(
      db,
    );
    const before = await snapshot(db, usingPostgres());
    await db.destroy();
    const file = path.join(p.dataDir, 'messenger.sqlite');
    const hash = () => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    const bytes = usingPostgres() ? null : hash();

    const refused = await p.open(release).catch((e) => e);
    expect(refused).toBeInstanceOf(StartRefused);
    expect(refused.message).toContain('более новой версией Беседы (схема 099)');
    expect(refused.message).toContain(`эта версия ${RELEASE_VERSION} знает схему только до ${lastNumber}`);
    expect(p.backups()).toEqual([]);
    if (bytes) expect(hash()).toBe(bytes);
    else {
      // Read through a handle that migrates nothing: the release's list with the future row known.
      const look = await p.open({ ...release, '099_future': { up: async () => {} } });
      expect(await snapshot(look, true)).toEqual(before);
      await look.destroy();
    }
  });
});

describe('a migration that fails half-way', () => {
  it('leaves the tables and rows as they were, and says how to go back', async () => {
    const p = await place();
    const postgres = usingPostgres();
    const db = await p.open(withProbe);
    const before = await snapshot(db, postgres);
    await db.destroy();
    expect(before.probe).toEqual([
      { id: 1, v: 'один' },
      { id: 2, v: 'два' },
    ]);
    if (postgres) dump(p.dataDir);

    const failing: Record<string, Migration> = {
      ...withProbe,
      '901_half': {
        async up(db) {
          await sql`create table half_done (id integer primary key)`.execute(db);
          await sql`update probe set v = 'испорчено'`.execute(db);
          await sql`delete from probe where id = 2`.execute(db);
          throw new Error('сбой посреди шага');
        },
      },
    };
    const failed = await p.open(failing).catch((e) => e);
    expect(failed).toBeInstanceOf(UpgradeFailed);
    expect(failed.message).toContain('не удалось на шаге 901_half (сбой посреди шага)');
    expect(failed.message).toContain('Вернитесь на прежнюю версию сервера');
    expect(failed.message).toContain(failed.copy);
    if (!postgres) expect(failed.message).toContain('cp "');

    const after = await p.open(withProbe);
    expect(await snapshot(after, postgres)).toEqual(before);
    await after.destroy();
  });
});
