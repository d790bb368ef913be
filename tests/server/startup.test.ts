// The server's start-up conditions answered in one Russian sentence, not a stack trace (server/startup.ts): the real
// entry (server/main.ts) as a child process for a port in use and a wrong DATABASE_URL; the sentences for a full disk
// and a read-only data directory from the errors Node raises (the tests run as root, so a directory cannot be made
// unwritable here). And the two versions an operator names: `npm run admin -- version` and /api/health/ready.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../server/db/upgrade';
import { startupProblem } from '../../server/startup';
import { RELEASE_VERSION } from '../../server/version';
import { runAdmin } from './admin-runner';
import { client, startTestServer } from './harness';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-start-'));
  dirs.push(d);
  return d;
};

/** Runs `node --import tsx server/main.ts` until it exits; its exit code and what it wrote to stderr. */
function start(env: Record<string, string>): Promise<{ code: number | null; err: string }> {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.TEST_PG_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...base, HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: tempDir(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c) => {
    err += c;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, err })));
}

describe('start-up conditions', () => {
  it('a port in use', async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const { code, err } = await start({ PORT: String(port) });
      expect(code).toBe(1);
      expect(err.trim()).toBe(
        `Беседа не запущена: Порт ${port} уже занят другой программой (или другой копией Беседы): остановите её или задайте другой порт (PORT=…).`,
      );
    } finally {
      taken.close();
    }
  }, 120_000);

  it('a setting it cannot start with: the variable and what it wants, no stack trace', async () => {
    const schedule = await start({ BACKUP_SCHEDULE: '25:00' });
    expect(schedule.code).toBe(1);
    expect(schedule.err.trim()).toBe(
      'Беседа не запущена: Неверное значение BACKUP_SCHEDULE: «25:00». Укажите время ЧЧ:ММ (например 03:30) или off.',
    );
    const port = await start({ PORT: 'восемь' });
    expect(port.code).toBe(1);
    expect(port.err.trim()).toBe(
      'Беседа не запущена: Неверное значение PORT: «восемь». Нужно целое неотрицательное число.',
    );
    const tls = await start({ TLS_CERT: '/etc/cert.pem' });
    expect(tls.err.trim()).toBe(
      'Беседа не запущена: TLS_CERT и TLS_KEY задаются вместе: укажите оба файла или ни одного.',
    );
  }, 120_000);

  it('a DATABASE_URL nothing answers at, one of another kind, one that is no address', async () => {
    const [refused, foreign, malformed] = await Promise.all([
      start({ PORT: '0', DATABASE_URL: 'postgres://beseda:secret@127.0.0.1:1/messenger' }),
      start({ PORT: '0', DATABASE_URL: 'mysql://127.0.0.1/messenger' }),
      start({ PORT: '0', DATABASE_URL: 'postgres://bad host:99999/x' }),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.err.trim()).toBe(
      'Беседа не запущена: Не удалось подключиться к PostgreSQL по DATABASE_URL (127.0.0.1:1/messenger): соединение отвергнуто. Проверьте, что PostgreSQL запущен, а адрес, имя базы и пароль в DATABASE_URL верны.',
    );
    expect(refused.err).not.toContain('secret');
    expect(foreign.err.trim()).toBe(
      'Беседа не запущена: DATABASE_URL должен начинаться с postgres:// (или не задавайте его: тогда база — файл SQLite в DATA_DIR).',
    );
    expect(malformed.err.trim()).toBe(
      'Беседа не запущена: DATABASE_URL не похож на адрес базы: нужен вид postgres://пользователь:пароль@сервер:5432/база.',
    );
  }, 120_000);

  it('a full disk, a read-only or forbidden data directory', () => {
    const config = { port: 4000, dataDir: '/srv/beseda', databaseUrl: null };
    const sysErr = (code: string, extra: object = {}) => Object.assign(new Error(code), { code, ...extra });
    expect(startupProblem(sysErr('ENOSPC', { path: '/srv/beseda/secrets.json' }), config)).toBe(
      'На диске не осталось места (/srv/beseda/secrets.json): освободите место или перенесите DATA_DIR на другой диск и запустите снова.',
    );
    expect(startupProblem(sysErr('SQLITE_FULL'), config)).toContain('На диске не осталось места (/srv/beseda)');
    const readOnly =
      'Нет права записи в каталог данных (/srv/beseda): дайте пользователю, от имени которого запущена Беседа, право записи в DATA_DIR или укажите другой каталог (DATA_DIR=…).';
    expect(startupProblem(sysErr('EROFS', { path: '/srv/beseda' }), config)).toBe(readOnly);
    expect(startupProblem(sysErr('EACCES', { syscall: 'mkdir', path: '/srv/beseda' }), config)).toBe(readOnly);
    expect(startupProblem(sysErr('SQLITE_READONLY'), config)).toBe(readOnly);
    expect(startupProblem(sysErr('EACCES', { syscall: 'listen', port: 80 }), config)).toContain(
      'Нет права открыть порт 80',
    );
    // Anything else is a bug: printed with its stack trace.
    expect(startupProblem(new TypeError('x is undefined'), config)).toBeNull();
  });
});

describe('the versions', () => {
  it('`npm run admin -- version` names the release, its schema and the database’s', async () => {
    const dataDir = tempDir();
    const empty = await runAdmin({ DATA_DIR: dataDir, DATABASE_URL: '' }, ['version']);
    expect(empty.code).toBe(0);
    expect(empty.out).toBe(
      `Версия: ${RELEASE_VERSION} · схема ${SCHEMA_VERSION}\nБаза: пуста (схема появится при первом запуске)`,
    );
    const srv = await startTestServer();
    try {
      const res = await runAdmin({ DATA_DIR: srv.config.dataDir, DATABASE_URL: srv.config.databaseUrl ?? '' }, [
        'version',
      ]);
      expect(res.out).toBe(`Версия: ${RELEASE_VERSION} · схема ${SCHEMA_VERSION}\nБаза: схема ${SCHEMA_VERSION}`);
      const ready = await client(srv.url).get('/api/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.version).toEqual({ release: RELEASE_VERSION, schema: SCHEMA_VERSION });
    } finally {
      await srv.close();
    }
  }, 120_000);
});
