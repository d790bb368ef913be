// `npm run admin -- backup / restore`: a backup taken by another process while the server acknowledges a stream of
// sends, restored into a new directory and served again (every acknowledged message before the snapshot present
// exactly once, every upload byte-identical, the old sign-ins still valid: the secrets came back); refusals that
// write nothing (a non-empty DATA_DIR, a flipped byte, a truncated, tampered, foreign or newer archive); usage.
// On PostgreSQL the archive holds uploads, secrets and manifest only, and the database goes through pg_dump.
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { create as createTar, extract as extractTar, list as listTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from './admin-runner';
import { client, startTestServer, type TestServer, usingPostgres } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

const run = promisify(execFile);
const hasPgDump = spawnSync('pg_dump', ['--version']).status === 0;

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let conv: string;
let work: string;
/** Upload key → the bytes the server served before the backup. */
const served = new Map<string, Buffer>();
const cleanups: (() => Promise<unknown>)[] = [];

/** Runs a command in this process with these environment variables, returning its exit code and output. */
const admin = (env: Record<string, string>, ...argv: string[]) => runAdmin(env, argv);

/** The environment the CLI sees for the running test server (its data directory and database). */
const liveEnv = () => ({ DATA_DIR: srv.config.dataDir, DATABASE_URL: srv.config.databaseUrl ?? '' });

async function upload(bytes: Buffer, name: string, type: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${srv.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${alice.accessToken}` },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { url: string }).url.split('/').pop() as string;
}

async function fetchBytes(base: string, key: string): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(`${base}/uploads/${key}`);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function history(base: string, token: string) {
  const c = client(base);
  const all: { id: string; clientMessageId: string | null }[] = [];
  let before = '';
  for (;;) {
    const page = await c.get(`/api/conversations/${conv}/messages?limit=200${before}`, token);
    expect(page.status).toBe(200);
    all.unshift(...page.body.messages);
    if (!page.body.hasMore) return all;
    before = `&before=${page.body.messages[0].id}`;
  }
}

/** Leftovers of an unfinished backup or restore (`.<name>.partial-…`, `.<name>.restore-…`) in a directory. */
const leftovers = (dir: string) => fs.readdirSync(dir).filter((n) => /\.(partial|restore)-/.test(n));

/** A PostgreSQL database of this test's own, dropped at the end. */
async function freshDatabase(): Promise<string> {
  const adminUrl = process.env.TEST_PG_URL as string;
  const name = `msg_restore_${randomBytes(6).toString('hex')}`;
  const q = async (text: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(text);
    await c.end();
  };
  await q(`CREATE DATABASE ${name}`);
  cleanups.push(() => q(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
  srv = await startTestServer();
  api = client(srv.url);
  [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
  await befriend(api, alice, bob);
  conv = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation
    .id as string;
  const files: [Buffer, string, string][] = [
    [Buffer.from('Протокол собрания\n'.repeat(50)), 'протокол.txt', 'text/plain'],
    [randomBytes(300 * 1024), 'data.bin', 'application/octet-stream'],
    [randomBytes(1), 'one.bin', 'application/octet-stream'],
  ];
  for (const [bytes, name, type] of files) {
    const key = await upload(bytes, name, type);
    const got = await fetchBytes(srv.url, key);
    expect(got.status).toBe(200);
    served.set(key, got.bytes);
  }
});

afterAll(async () => {
  await srv?.close();
  for (const c of cleanups.reverse()) await c();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('backup under load, restore into a new directory', () => {
  it('keeps every message acknowledged before the snapshot exactly once, and every upload byte for byte', async () => {
    // Four senders, one send at a time each: what each had acknowledged, in order.
    const acked: string[][] = [[], [], [], []];
    let stop = false;
    const total = () => acked.reduce((s, a) => s + a.length, 0);
    let underLoad: () => void = () => {};
    /** Resolves once 40 sends have been acknowledged. */
    const loaded = new Promise<void>((resolve) => {
      underLoad = resolve;
    });
    const sender = async (i: number) => {
      const token = i % 2 ? alice.accessToken : bob.accessToken;
      for (let n = 0; !stop; n++) {
        const clientMessageId = `s${i}-${n}`;
        const res = await api.post(
          '/api/conversations/send',
          { conversationId: conv, type: 'TEXT', content: `сообщение ${clientMessageId}`, clientMessageId },
          token,
        );
        if (res.status !== 200) throw new Error(`send answered ${res.status} ${JSON.stringify(res.body)}`);
        acked[i]?.push(res.body.message.id);
        if (total() >= 40) underLoad();
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(sender));
    // A sender that fails ends the wait too (with its error).
    await Promise.race([loaded, load]);

    // Another process, as an administrator would run it beside the live server.
    const archive = path.join(work, 'live.tar.gz');
    const before = acked.map((a) => a.length);
    const cli = await run(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', 'backup', archive], {
      env: { ...process.env, ...liveEnv() },
    });
    const duringBackup = total() - before.reduce((s, n) => s + n, 0);
    let restoredDatabase = '';
    let dumpBefore = before;
    if (usingPostgres()) {
      expect(cli.stdout).toContain('pg_dump');
      if (hasPgDump) {
        // The database's own snapshot, also taken under load.
        dumpBefore = acked.map((a) => a.length);
        const dump = path.join(work, 'messenger.dump');
        await run('pg_dump', ['-Fc', '-f', dump, srv.config.databaseUrl as string]);
        restoredDatabase = await freshDatabase();
        await run('pg_restore', ['--no-owner', '-d', restoredDatabase, dump]);
      }
    }
    stop = true;
    await load;
    expect(duringBackup).toBeGreaterThan(0); // the server kept acknowledging while the backup ran

    const members: string[] = [];
    await listTar({ file: archive, onReadEntry: (e) => void members.push(e.path) });
    expect(members).toContain('manifest.json');
    expect(members).toContain('secrets.json');
    for (const key of served.keys()) expect(members).toContain(`uploads/${key}`);
    expect(members.includes('database.sqlite')).toBe(!usingPostgres());
    expect(fs.readdirSync(work).filter((n) => n.startsWith('.'))).toEqual([]); // no partial left

    if (usingPostgres()) {
      // The files alone into a database nobody restored: refused, so a server never starts on them empty.
      const target = path.join(work, 'files-only');
      const empty = await admin({ DATA_DIR: target, DATABASE_URL: await freshDatabase() }, 'restore', archive);
      expect(empty.code).toBe(1);
      expect(empty.err).toContain('База по DATABASE_URL пуста');
      expect(fs.existsSync(target)).toBe(false);
      if (!hasPgDump) return;
    }
    const restoredDir = path.join(work, 'restored');
    const env = { DATA_DIR: restoredDir, DATABASE_URL: restoredDatabase };
    if (usingPostgres()) {
      // The archive says it has no database: restoring it without one is refused.
      const noDb = await admin({ ...env, DATABASE_URL: '' }, 'restore', archive);
      expect(noDb.code).toBe(1);
      expect(noDb.err).toContain('PostgreSQL');
      expect(fs.existsSync(restoredDir)).toBe(false);
    }
    const restored = await admin(env, 'restore', archive);
    expect(restored).toMatchObject({ code: 0, err: '' });
    expect(restored.out).toContain(`Восстановлено в ${restoredDir}`);

    const second = await startTestServer({ dataDir: restoredDir, databaseUrl: restoredDatabase || null });
    cleanups.push(() => second.close());
    // Tokens signed before the backup still verify: the secrets came back with the data.
    const stored = await history(second.url, alice.accessToken);
    const ids = stored.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const snapshotFloor = usingPostgres() ? dumpBefore : before;
    for (const [i, sent] of acked.entries()) {
      // Sends of one sender are sequential: what the snapshot holds of them is a prefix of what was acknowledged.
      const mine = stored.filter((m) => m.clientMessageId?.startsWith(`s${i}-`)).map((m) => m.id);
      expect(mine.length).toBeGreaterThanOrEqual(snapshotFloor[i] as number);
      expect(mine).toEqual(sent.slice(0, mine.length));
    }
    expect(stored.length).toBe(stored.filter((m) => m.clientMessageId).length);
    for (const [key, bytes] of served) {
      const again = await fetchBytes(second.url, key);
      expect(again.status).toBe(200);
      expect(again.bytes.equals(bytes)).toBe(true);
    }
  });
});

describe('restore refuses and writes nothing', () => {
  let good: string;
  beforeAll(async () => {
    good = path.join(work, 'good.tar.gz');
    const made = await admin(liveEnv(), 'backup', good);
    expect(made.code).toBe(0);
  });

  /** Restores into a fresh path under `work` and checks that nothing appeared there or beside it. */
  async function refused(archive: string, pattern: RegExp) {
    const target = path.join(work, `target-${randomBytes(3).toString('hex')}`);
    const res = await admin({ ...liveEnv(), DATA_DIR: target }, 'restore', archive);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(pattern);
    expect(res.err).toContain('Ничего не записано');
    expect(fs.existsSync(target)).toBe(false);
    expect(leftovers(work)).toEqual([]);
  }

  it('into a directory that is not empty, leaving it as it was', async () => {
    const dir = path.join(work, 'occupied');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'keep.txt'), 'моё');
    const res = await admin({ ...liveEnv(), DATA_DIR: dir }, 'restore', good);
    expect(res).toMatchObject({ code: 1, out: '' });
    expect(res.err).toContain(`Каталог данных ${dir} не пуст`);
    expect(fs.readdirSync(dir)).toEqual(['keep.txt']);
    expect(fs.readFileSync(path.join(dir, 'keep.txt'), 'utf8')).toBe('моё');
    expect(leftovers(work)).toEqual([]);
  });

  it('a damaged archive: a flipped byte, a truncated one', async () => {
    const bytes = fs.readFileSync(good);
    const flipped = Buffer.from(bytes);
    const at = Math.floor(bytes.length / 2);
    flipped[at] = (flipped[at] as number) ^ 0xff;
    fs.writeFileSync(path.join(work, 'flipped.tar.gz'), flipped);
    await refused(path.join(work, 'flipped.tar.gz'), /повреждён/);
    fs.writeFileSync(path.join(work, 'truncated.tar.gz'), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await refused(path.join(work, 'truncated.tar.gz'), /повреждён|обрезан/);
  });

  it('a tampered member under its old checksum, a foreign archive, a newer format', async () => {
    const unpacked = path.join(work, 'unpacked');
    fs.mkdirSync(unpacked);
    await extractTar({ file: good, cwd: unpacked });
    const names = fs.readdirSync(unpacked);
    const repack = async (name: string) => {
      const file = path.join(work, name);
      await createTar({ gzip: true, file, cwd: unpacked }, fs.readdirSync(unpacked));
      return file;
    };

    fs.writeFileSync(path.join(unpacked, 'secrets.json'), '{"jwtSecret":"подменённый секрет, длиннее 32 символов"}');
    await refused(await repack('tampered.tar.gz'), /Контрольная сумма secrets\.json не сходится/);

    const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
    fs.writeFileSync(path.join(unpacked, 'manifest.json'), JSON.stringify({ ...manifest, formatVersion: 99 }));
    await refused(await repack('newer.tar.gz'), /более новой версией сервера \(формат 99/);

    fs.rmSync(path.join(unpacked, 'manifest.json'));
    await refused(await repack('foreign.tar.gz'), /нет manifest\.json/);
    expect(names).toContain('uploads');

    fs.writeFileSync(path.join(work, 'plain.txt'), 'не архив');
    await refused(path.join(work, 'plain.txt'), /повреждён/);
  });

  it('a backup that cannot be written leaves no partial file', async () => {
    const empty = path.join(work, 'no-data');
    fs.mkdirSync(empty);
    const out = path.join(work, 'nothing.tar.gz');
    const res = await admin({ DATA_DIR: empty, DATABASE_URL: '' }, 'backup', out);
    expect(res.code).toBe(1);
    expect(res.err).toContain('нет базы messenger.sqlite');
    expect(fs.existsSync(out)).toBe(false);
    const nowhere = await admin(liveEnv(), 'backup', path.join(work, 'missing', 'x.tar.gz'));
    expect(nowhere.code).toBe(1);
    expect(leftovers(work)).toEqual([]);
  });
});

describe('usage', () => {
  it('answers --help with 0 and wrong usage with 2', async () => {
    const help = await admin({}, 'backup', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('usage: npm run admin -- backup <file.tar.gz>');
    expect((await admin({}, 'restore', '--help')).out).toContain(
      'usage: npm run admin -- restore <file.tar.gz | name in DATA_DIR/backups | S3 key>',
    );
    expect((await admin({}, 'verify-backup')).code).toBe(2);
    expect((await admin({}, 'backup')).code).toBe(2);
    expect((await admin({}, 'restore', 'a.tar.gz', 'b.tar.gz')).code).toBe(2);
    expect((await admin({}, 'backup', '--level', '9', 'x.tar.gz')).code).toBe(2);
    expect((await admin({}, '--help')).out).toContain('restore <file.tar.gz');
    expect((await admin({}, '--help')).out).toContain('verify-backup <file.tar.gz | messenger.dump');
  });
});
