// Backups the server makes by itself (server/backups): on a clock the test moves, the first one at BACKUP_SCHEDULE's
// time; after many days exactly the set BACKUP_KEEP describes is left (the copies taken before upgrades to the
// newest three, a file of the operator's own untouched); into the S3 bucket when uploads live there; one run per
// scheduled moment however many processes there are; a failed run recorded and warned of on the console's API and
// in /metrics until the next one succeeds; none for 26 hours is a warning too; BACKUP_SCHEDULE=off makes none;
// the shell's verify-backup and restore read a backup in the bucket by its key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../server/app';
import { INTERRUPTED, STALE_WARNING } from '../../server/backups/backups.plugin';
import {
  type BackupSchedule,
  backupName,
  backupsToKeep,
  dumpName,
  isoWeekKey,
  type KeepRule,
  parseKeep,
  parseSchedule,
} from '../../server/backups/schedule';
import { loadConfig } from '../../server/config';
import { runAdmin } from './admin-runner';
import { client, startTestServer, type TestServer, usingPostgres } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { startS3, type TestS3 } from './s3';

const DAY = 86_400_000;
const AT_0330: BackupSchedule = { hour: 3, minute: 30 };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A Monday, 10:00 local time: the first scheduled moment is Tuesday 03:30. */
const START = new Date(2026, 2, 2, 10, 0, 0, 0).getTime();
const slotOn = (dayOffset: number) => new Date(2026, 2, 2 + dayOffset, 3, 30, 0, 0).getTime();

async function server(keep: KeepRule = { days: 7, weeks: 4 }, extra: Parameters<typeof startTestServer>[0] = {}) {
  const clock = manualClock(START);
  // On disk unless the test hands in a bucket (also with TEST_S3=1, which would give every server one).
  const srv = await startTestServer({ backup: { schedule: AT_0330, keep }, s3: null, ...extra }, { clock });
  cleanups.push(() => srv.close());
  // Something to back up: an account (the first one, so the administrator) and a message to itself.
  const api = client(srv.url);
  const admin = await api.user('admin');
  return { srv, clock, api, admin };
}

/** The console's figures, signed in afresh (the clock has moved past the access token's lifetime). */
async function consoleBackup(api: ReturnType<typeof client>, admin: { username: string; password: string }) {
  const login = await api.post('/api/auth/login', { username: admin.username, password: admin.password });
  const stats = await api.get('/api/admin/stats', login.body.accessToken);
  expect(stats.status).toBe(200);
  return stats.body.backup;
}

/** Moves the clock to `at` and waits for the run that started on the way. */
async function advanceTo(srv: TestServer, clock: ManualClock, at: number) {
  clock.advance(at - clock.now());
  await srv.server.app.backups.idle();
}

/** The files of one scheduled backup: its archive, and on PostgreSQL the database's dump beside it. */
const made = (at: number) => (usingPostgres() ? [backupName(at), dumpName(backupName(at))] : [backupName(at)]);
const sizeOf = (dir: string, at: number) => made(at).reduce((n, name) => n + fs.statSync(path.join(dir, name)).size, 0);

const backupsDir = (srv: TestServer) => path.join(srv.config.dataDir, 'backups');
const files = (srv: TestServer) => fs.readdirSync(backupsDir(srv)).sort();

async function scrape(srv: TestServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${srv.url}/metrics`)).text();
  const figures: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^(beseda_backup_\w+) (\S+)$/.exec(line);
    if (m) figures[m[1] as string] = Number(m[2]);
  }
  return figures;
}

describe('settings', () => {
  it('reads BACKUP_SCHEDULE and BACKUP_KEEP, on by default', () => {
    const config = loadConfig({});
    expect(config.backup).toEqual({ schedule: { hour: 3, minute: 30 }, keep: { days: 7, weeks: 4 } });
    expect(loadConfig({ BACKUP_SCHEDULE: 'off' }).backup.schedule).toBeNull();
    expect(parseSchedule('4:05')).toEqual({ hour: 4, minute: 5 });
    expect(parseKeep('14d')).toEqual({ days: 14, weeks: 0 });
    expect(parseKeep('2w, 3d')).toEqual({ days: 3, weeks: 2 });
    expect(() => parseSchedule('25:00')).toThrow('Неверное значение BACKUP_SCHEDULE: «25:00»');
    expect(() => parseSchedule('*/5 * * * *')).toThrow('BACKUP_SCHEDULE');
    expect(() => parseKeep('7x')).toThrow('Неверное значение BACKUP_KEEP: «7x»');
    expect(() => parseKeep('7d,8d')).toThrow('BACKUP_KEEP');
  });

  it('names ISO weeks as the standard does at year ends', () => {
    expect(isoWeekKey(new Date(2026, 0, 1))).toBe('2026-W01');
    expect(isoWeekKey(new Date(2027, 0, 1))).toBe('2026-W53');
    expect(isoWeekKey(new Date(2024, 11, 30))).toBe('2025-W01');
    expect(isoWeekKey(new Date(2026, 2, 8))).toBe('2026-W10'); // a Sunday
    expect(isoWeekKey(new Date(2026, 2, 9))).toBe('2026-W11');
  });

  it('keeps an archive and its dump together', () => {
    const names = [1, 2, 3].flatMap((d) => [backupName(slotOn(d)), dumpName(backupName(slotOn(d)))]);
    const keep = backupsToKeep(names, { days: 2, weeks: 0 }, slotOn(3), null);
    expect([...keep].sort()).toEqual(names.slice(2).sort());
  });

  it('keeps the newest of each day and week and never the backup just made', () => {
    const names = [0, 1, 2, 3].map((d) => backupName(slotOn(d)));
    const extra = backupName(slotOn(3) + 3600_000); // a second one that day
    const keep = backupsToKeep([...names, extra], { days: 1, weeks: 0 }, slotOn(3) + 7200_000, names[0] as string);
    expect([...keep].sort()).toEqual([names[0], extra].sort());
  });
});

describe('scheduled backups', () => {
  it('makes the first backup at 03:30 and prunes by the keep rule over many days', async () => {
    const { srv, clock } = await server();
    // Nothing before the time; the operator's own file and five copies from upgrades lie in the same directory.
    await advanceTo(srv, clock, slotOn(1) - 60_000);
    expect(fs.existsSync(backupsDir(srv))).toBe(false);
    fs.mkdirSync(backupsDir(srv));
    fs.writeFileSync(path.join(backupsDir(srv), 'mine.tar.gz'), 'my own');
    const upgrades = [1, 2, 3, 4, 5].map((n) => `before-upgrade-2026-0${n}-01T00-00-00Z-03${n}-to-03${n + 1}.sqlite`);
    for (const name of upgrades) fs.writeFileSync(path.join(backupsDir(srv), name), 'copy');

    await advanceTo(srv, clock, slotOn(1));
    expect(files(srv)).toEqual([...made(slotOn(1)), ...upgrades.slice(2), 'mine.tar.gz'].sort());
    const status = await srv.server.app.backups.status();
    expect(status).toMatchObject({
      schedule: 'каждый день в 03:30',
      location: 'disk',
      place: backupsDir(srv),
      last: { status: 'ok', target: path.join(backupsDir(srv), backupName(slotOn(1))), failure: null },
      warning: null,
    });
    expect(status.last?.bytes).toBe(sizeOf(backupsDir(srv), slotOn(1)));

    // 40 more days, one backup each: the last 7 days' and the newest of each of the last 4 ISO weeks are left.
    const last = 41;
    for (let d = 2; d <= last; d++) await advanceTo(srv, clock, slotOn(d));
    const expected = new Set<number>();
    for (let d = last - 6; d <= last; d++) expected.add(slotOn(d));
    // slotOn(0) is a Monday: a week's newest is its Sunday (day 6 + 7k), the current week's newest is today.
    const monday = last - ((new Date(slotOn(last)).getDay() + 6) % 7);
    for (let w = 1; w <= 3; w++) expected.add(slotOn(monday - 7 * (w - 1) - 1));
    expect(files(srv)).toEqual([...[...expected].flatMap(made), ...upgrades.slice(2), 'mine.tar.gz'].sort());
    expect(expected.size).toBe(10);
  }, 120_000); // 41 backups (on PostgreSQL each with a pg_dump)

  it('with several processes, makes one backup per scheduled moment', async () => {
    const { srv, clock } = await server();
    const second = await createServer(srv.config, { clock });
    cleanups.push(() => second.close());
    clock.advance(slotOn(1) - clock.now());
    await Promise.all([srv.server.app.backups.idle(), second.app.backups.idle()]);
    expect(files(srv)).toEqual(made(slotOn(1)).sort());
    const rows = await srv.server.ctx.db.selectFrom('backup_runs').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect((await second.app.backups.status()).last?.status).toBe('ok');
  });

  it('records a failed backup and warns of it on the console and in /metrics until one succeeds', async () => {
    const { srv, clock, api, admin } = await server();
    // A file where the directory should be: the archive has nowhere to go.
    fs.writeFileSync(backupsDir(srv), 'in the way');
    await advanceTo(srv, clock, slotOn(1));
    const backup = await consoleBackup(api, admin);
    expect(backup.last).toMatchObject({ status: 'failed', bytes: null });
    expect(backup.last.failure).toMatch(/^Не удалось сделать резервную копию: /);
    expect(backup.warning).toMatch(/^Последняя резервная копия не удалась \(2026-03-0\d \d\d:\d\d:\d\d UTC\): /);
    expect(await scrape(srv)).toEqual({
      beseda_backup_last_success_timestamp_seconds: 0,
      beseda_backup_last_ok: 0,
      beseda_backup_last_size_bytes: 0,
      beseda_backup_warning: 1,
    });

    fs.rmSync(backupsDir(srv));
    await advanceTo(srv, clock, slotOn(2));
    const after = await consoleBackup(api, admin);
    expect(after).toMatchObject({ last: { status: 'ok', failure: null }, warning: null });
    const figures = await scrape(srv);
    expect(figures.beseda_backup_last_ok).toBe(1);
    expect(figures.beseda_backup_warning).toBe(0);
    expect(figures.beseda_backup_last_success_timestamp_seconds).toBe(Date.parse(after.lastOkAt) / 1000);
    expect(figures.beseda_backup_last_size_bytes).toBe(after.last.bytes);
  });

  it('warns when no backup succeeded for 26 hours, and of a run cut short', async () => {
    const { srv, clock, api, admin } = await server();
    const db = srv.server.ctx.db;
    const iso = (ms: number) => new Date(ms).toISOString();
    await db
      .insertInto('backup_runs')
      .values({
        id: 'old',
        slot: null,
        started_at: iso(clock.now() - 30 * 3600_000),
        finished_at: iso(clock.now() - 30 * 3600_000 + 1000),
        status: 'ok',
        location: 'disk',
        target: '/somewhere/old.tar.gz',
        size_bytes: 100,
      })
      .execute();
    let backup = await consoleBackup(api, admin);
    expect(backup.warning).toBe(STALE_WARNING);
    expect((await scrape(srv)).beseda_backup_warning).toBe(1);
    await db
      .insertInto('backup_runs')
      .values({
        id: 'cut',
        slot: null,
        started_at: iso(clock.now() - 7 * 3600_000),
        status: 'running',
        location: 'disk',
        target: '/somewhere/cut.tar.gz',
      })
      .execute();
    backup = await consoleBackup(api, admin);
    expect(backup.last).toMatchObject({ status: 'failed', failure: INTERRUPTED });
    expect(backup.warning).toContain(INTERRUPTED);
    // A fresh server with no backup yet is not warned of before 26 hours have passed.
    const fresh = await server();
    expect((await fresh.srv.server.app.backups.status()).warning).toBeNull();
  });

  it('makes none with BACKUP_SCHEDULE=off, and warns of none', async () => {
    const clock = manualClock(START);
    const srv = await startTestServer({}, { clock });
    cleanups.push(() => srv.close());
    await advanceTo(srv, clock, START + 30 * DAY);
    expect(fs.existsSync(backupsDir(srv))).toBe(false);
    expect(await srv.server.ctx.db.selectFrom('backup_runs').selectAll().execute()).toEqual([]);
    expect(await srv.server.app.backups.status()).toMatchObject({ schedule: null, last: null, warning: null });
    expect((await scrape(srv)).beseda_backup_warning).toBe(0);
  });

  it('with uploads in S3, puts backups into the bucket under backups/ and prunes them there', async () => {
    const s3: TestS3 = await startS3();
    cleanups.push(() => s3.close());
    const { srv, clock } = await server({ days: 2, weeks: 1 }, { s3: s3.settings });
    for (let d = 1; d <= 5; d++) await advanceTo(srv, clock, slotOn(d));
    const backups = (await s3.objects()).filter((k) => k.startsWith('backups/')).sort();
    expect(backups).toEqual([...made(slotOn(4)), ...made(slotOn(5))].map((n) => `backups/${n}`).sort());
    expect(fs.existsSync(backupsDir(srv))).toBe(false);
    const status = await srv.server.app.backups.status();
    expect(status).toMatchObject({
      location: 's3',
      place: `s3://${s3.settings.bucket}/backups/`,
      last: { status: 'ok', target: `backups/${backupName(slotOn(5))}` },
    });
    const archive = await s3.object(`backups/${backupName(slotOn(5))}`);
    const dump = usingPostgres() ? await s3.object(`backups/${dumpName(backupName(slotOn(5)))}`) : Buffer.alloc(0);
    expect(archive.length + dump.length).toBe(status.last?.bytes);
    expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip

    // The shell reads it by its key (or its name alone): verify-backup, then restore into a new data directory.
    const s3env = {
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint as string,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      DATABASE_URL: srv.config.databaseUrl ?? '',
    };
    const checked = await runAdmin({ ...s3env, DATA_DIR: srv.config.dataDir }, [
      'verify-backup',
      `backups/${backupName(slotOn(5))}`,
    ]);
    expect(checked.err).toBe('');
    expect(checked.out).toContain(`Архив: s3://${s3.settings.bucket}/backups/${backupName(slotOn(5))}`);
    expect(checked.out).toContain('Резервная копия в порядке');
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'restore-from-s3-')), 'data');
    cleanups.push(async () => fs.rmSync(path.dirname(target), { recursive: true, force: true }));
    const restored = await runAdmin({ ...s3env, DATA_DIR: target }, ['restore', backupName(slotOn(5))]);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(fs.existsSync(path.join(target, 'secrets.json'))).toBe(true);
    expect(fs.existsSync(path.join(target, 'messenger.sqlite'))).toBe(!srv.config.databaseUrl);
    const missing = await runAdmin({ ...s3env, DATA_DIR: target }, ['verify-backup', 'backups/nope.tar.gz']);
    expect(missing).toMatchObject({
      code: 1,
      err: `Архив backups/nope.tar.gz не найден: ни такого файла, ни ключа backups/nope.tar.gz в бакете ${s3.settings.bucket}`,
    });
  });
});
