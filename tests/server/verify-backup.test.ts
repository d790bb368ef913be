// `npm run admin -- verify-backup`: a good archive is read in a scratch directory (the live data directory left as
// it was, nothing left in the temporary one) and reported with its figures and one message read; a truncated
// archive, a flipped byte, a database damaged before it was archived (checksums that agree with the damage) and a
// missing file are each one Russian sentence and exit code 1, without a stack trace. On PostgreSQL, a pg_dump of
// the database is read by pg_restore and restored into a scratch database that is dropped afterwards.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { create as createTar, extract as extractTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from './admin-runner';
import { client, startTestServer, type TestServer, usingPostgres } from './harness';
import { befriend } from './socket-helpers';

const run = promisify(execFile);
const hasPgDump = spawnSync('pg_dump', ['--version']).status === 0;

let srv: TestServer;
let work: string;
let archive: string;

const liveEnv = () => ({ DATA_DIR: srv.config.dataDir, DATABASE_URL: srv.config.databaseUrl ?? '' });
const verify = (named: string, env: Record<string, string> = liveEnv()) => runAdmin(env, ['verify-backup', named]);
const scratchDirs = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('beseda-verify-'));

/** Every file under the data directory with its size and time: what verify-backup must leave as it was. */
function snapshot(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const st = fs.statSync(file);
      return `${path.relative(dir, file)} ${st.size} ${st.mtimeMs}`;
    })
    .sort();
}

/** The archive rebuilt with `change` applied to its unpacked files and manifest.json made to agree with them. */
async function rebuilt(name: string, change: (dir: string) => void): Promise<string> {
  const dir = fs.mkdtempSync(path.join(work, 'unpacked-'));
  await extractTar({ file: archive, cwd: dir });
  change(dir);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  for (const m of manifest.members) {
    const bytes = fs.readFileSync(path.join(dir, m.path));
    m.size = bytes.length;
    m.sha256 = createHash('sha256').update(bytes).digest('hex');
  }
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const out = path.join(work, name);
  const members = [...manifest.members.map((m: { path: string }) => m.path), 'manifest.json'];
  await createTar({ file: out, cwd: dir, gzip: true, portable: true }, members);
  return out;
}

function expectRefusal(r: { code: number; out: string; err: string }, sentence: RegExp) {
  expect(r.code).toBe(1);
  expect(r.err).toMatch(sentence);
  expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
  expect(r.err).not.toContain('Ничего не записано');
  expect(r.out).not.toContain('Резервная копия в порядке');
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-backup-test-'));
  srv = await startTestServer();
  const api = client(srv.url);
  const [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
  await befriend(api, alice, bob);
  const conv = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation
    .id as string;
  for (const content of ['Первое', 'Второе', 'Третье — последнее 🙂']) {
    const res = await api.post(
      '/api/conversations/send',
      { conversationId: conv, type: 'TEXT', content },
      alice.accessToken,
    );
    expect(res.status).toBe(200);
  }
  archive = path.join(work, 'good.tar.gz');
  const made = await runAdmin(liveEnv(), ['backup', archive]);
  expect(made.code).toBe(0);
  // Stopped, with what follows the sends' acknowledgements done (the search index's drain writes the database's WAL
  // after them): the data directory changes only if verify-backup changes it. Its files and database stay.
  await srv.stop();
});

afterAll(async () => {
  await srv?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('verify-backup', () => {
  it('reports a good archive with its figures and one message read, leaving the data directory as it was', async () => {
    const before = snapshot(srv.config.dataDir);
    const scratchBefore = scratchDirs();
    const r = await verify(archive);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Архив: ${archive}`);
    expect(r.out).toMatch(/Контрольные суммы сходятся \(файлов по manifest.json: \d+\)/);
    if (usingPostgres()) {
      expect(r.out).toContain('База PostgreSQL в архив не входит');
    } else {
      expect(r.out).toContain('База SQLite: проверка целостности пройдена');
      // Each account has its «Избранное», a conversation of its own.
      expect(r.out).toContain('Записей: пользователей 2, бесед 3, участий в беседах 4, сообщений 3,');
      expect(r.out).toMatch(/Последнее сообщение \(\S+, \S+\) читается: 20 символов/);
    }
    expect(r.out.split('\n').at(-1)).toBe(
      'Резервная копия в порядке: её можно восстановить (npm run admin -- restore).',
    );
    expect(snapshot(srv.config.dataDir)).toEqual(before);
    expect(scratchDirs()).toEqual(scratchBefore);
  });

  it('finds a backup by its name in DATA_DIR/backups', async () => {
    fs.mkdirSync(path.join(srv.config.dataDir, 'backups'), { recursive: true });
    fs.copyFileSync(archive, path.join(srv.config.dataDir, 'backups', 'named.tar.gz'));
    const r = await verify('named.tar.gz');
    expect(r.code).toBe(0);
    expect(r.out).toContain(path.join(srv.config.dataDir, 'backups', 'named.tar.gz'));
    fs.rmSync(path.join(srv.config.dataDir, 'backups'), { recursive: true });
  });

  it('refuses a truncated archive, a flipped byte and a missing file, each in one sentence', async () => {
    const bytes = fs.readFileSync(archive);
    const truncated = path.join(work, 'truncated.tar.gz');
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expectRefusal(await verify(truncated), /^Архив повреждён или это не резервная копия Беседы \(.+\)\.$/);

    // A byte of the database (or, on PostgreSQL, of secrets.json) changed inside the archive: checksums disagree.
    const flipped = await rebuilt('flipped.tar.gz', () => {});
    const dir = fs.mkdtempSync(path.join(work, 'flip-'));
    await extractTar({ file: flipped, cwd: dir });
    const member = usingPostgres() ? 'secrets.json' : 'database.sqlite';
    const file = path.join(dir, member);
    const data = fs.readFileSync(file);
    data[Math.floor(data.length / 2)] ^= 0xff;
    fs.writeFileSync(file, data);
    const tampered = path.join(work, 'tampered.tar.gz');
    await createTar({ file: tampered, cwd: dir, gzip: true, portable: true }, fs.readdirSync(dir).sort());
    expectRefusal(await verify(tampered), new RegExp(`^Контрольная сумма ${member} не сходится: архив повреждён\\.$`));

    expectRefusal(
      await verify('nope.tar.gz'),
      new RegExp(`^Архив nope\\.tar\\.gz не найден ни здесь, ни в ${path.join(srv.config.dataDir, 'backups')}$`),
    );
    expectRefusal(await verify(path.join(work, 'nope.tar.gz')), /^Архив .*nope\.tar\.gz не найден$/);
  });

  it.skipIf(usingPostgres())('refuses an archive whose database was damaged before it was archived', async () => {
    // Pages in the middle overwritten: the checksums agree (they were taken of the damage), SQLite's check does not.
    const damaged = await rebuilt('damaged.tar.gz', (dir) => {
      const file = path.join(dir, 'database.sqlite');
      const data = fs.readFileSync(file);
      const page = data.readUInt16BE(16) || 65536;
      for (let at = page * 2; at < Math.min(data.length, page * 40); at += 7) data[at] = (at * 31) & 0xff;
      fs.writeFileSync(file, data);
    });
    expectRefusal(await verify(damaged), /^База в архиве повреждена: /);
    // Not a database at all.
    const garbage = await rebuilt('garbage.tar.gz', (dir) => {
      fs.writeFileSync(path.join(dir, 'database.sqlite'), Buffer.alloc(8192, 0x41));
    });
    expectRefusal(await verify(garbage), /^База в архиве повреждена: SQLite не может её прочитать/);
  });

  it.skipIf(!usingPostgres() || !hasPgDump)(
    'checks a pg_dump: structure, and a restore into a scratch database',
    async () => {
      const dump = path.join(work, 'messenger.dump');
      await run('pg_dump', ['-Fc', '-f', dump, srv.config.databaseUrl as string]);
      const databases = async () => {
        const c = new pg.Client({ connectionString: srv.config.databaseUrl as string });
        await c.connect();
        const rows = (await c.query("select datname from pg_database where datname like 'beseda_verify_%'")).rows;
        await c.end();
        return rows;
      };
      const full = await verify(dump);
      expect(full.err).toBe('');
      expect(full.code).toBe(0);
      expect(full.out).toContain('Дамп восстановлен в пробную базу');
      expect(full.out).toContain('Записей: пользователей 2, бесед 3, участий в беседах 4, сообщений 3,');
      expect(full.out).toMatch(/Последнее сообщение \(\S+, \S+\) читается: 20 символов/);
      expect(full.out.split('\n').at(-1)).toBe('Резервная копия в порядке: пробная база удалена.');
      expect(await databases()).toEqual([]);

      const structure = await verify(dump, { DATA_DIR: srv.config.dataDir, DATABASE_URL: '' });
      expect(structure.code).toBe(0);
      expect(structure.out).toContain('Структура дампа прочитана');

      const cut = path.join(work, 'cut.dump');
      fs.writeFileSync(cut, fs.readFileSync(dump).subarray(0, 600));
      expectRefusal(await verify(cut), /^Дамп PostgreSQL не читается: /);
      expect(await databases()).toEqual([]);
    },
  );
});
