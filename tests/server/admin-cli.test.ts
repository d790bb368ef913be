// `npm run admin`: the shell's administration on a real data directory (SQLite):
// each command's effect, its refusals with exit code 1 and wrong usage with 2, and the entry point run as a process.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from './admin-runner';
import { client, startTestServer, type TestServer } from './harness';

let dataDir: string;
let srv: TestServer | null = null;

/** Runs a command in this process, returning its exit code and what it printed. */
const admin = (...argv: string[]) => runAdmin({}, argv);

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-cli-'));
  process.env.DATA_DIR = dataDir;
  process.env.ADMIN_PASSWORD = 'correct horse battery';
  if (process.env.TEST_PG_URL) process.env.DATABASE_URL = '';
});
afterAll(async () => {
  await srv?.close();
  delete process.env.DATA_DIR;
  delete process.env.ADMIN_PASSWORD;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run admin', () => {
  it('creates users, promotes and demotes, never the last administrator', async () => {
    expect(await admin('create-user', 'olga', 'Ольга')).toMatchObject({ code: 0, out: 'Создан «olga»' });
    expect((await admin('create-user', 'petr', 'Пётр')).code).toBe(0);
    const last = await admin('demote', 'olga');
    expect(last).toMatchObject({ code: 1, err: 'Нельзя снять права с последнего администратора' });
    expect((await admin('promote', 'petr')).code).toBe(0);
    expect((await admin('demote', 'olga')).code).toBe(0);
    const nobody = await admin('promote', 'nobody');
    expect(nobody).toMatchObject({ code: 1, err: 'Пользователь «nobody» не найден' });
    const taken = await admin('create-user', 'OLGA', 'Другая');
    expect(taken).toMatchObject({ code: 1, err: 'Этот никнейм уже занят' });
  });

  it('prints invite codes and reset links the server then takes, and deactivates', async () => {
    const invite = await admin('invite', '--uses', '1', '--note', 'для Веры');
    expect(invite.code).toBe(0);
    expect(invite.out).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const link = await admin('reset-password', 'petr', '--base-url', 'https://chat.example.org/');
    expect(link.out).toMatch(/^https:\/\/chat\.example\.org\/reset\/[A-Za-z0-9_-]{43}\n/);
    expect((await admin('deactivate', 'olga')).out).toBe('Аккаунт «olga» отключён');

    srv = await startTestServer({ dataDir, databaseUrl: null }); // the CLI's SQLite file, also in the PostgreSQL run
    const api = client(srv.url);
    await api.patch('/api/admin/settings', { registration: 'invites' }, (await login(api, 'petr')).accessToken);
    const vera = await api.post('/api/auth/register', {
      username: 'vera',
      displayName: 'Вера',
      password: 'password123',
      inviteCode: invite.out,
    });
    expect(vera.status).toBe(201);
    const token = link.out.split('\n')[0].split('/').pop() as string;
    expect((await api.get(`/api/auth/reset/${token}`)).body.username).toBe('petr');
    expect((await api.post('/api/auth/login', { username: 'olga', password: 'correct horse battery' })).status).toBe(
      403,
    );
  });

  it('explains wrong usage with exit code 2 and answers --help with 0', async () => {
    expect((await admin()).code).toBe(2);
    expect((await admin('frobnicate')).code).toBe(2);
    expect((await admin('promote')).code).toBe(2);
    expect((await admin('invite', '--uses', 'many')).code).toBe(2);
    expect((await admin('invite', '--colour', 'red')).code).toBe(2);
    const help = await admin('deactivate', '--help');
    expect(help).toMatchObject({ code: 0 });
    expect(help.out).toContain('usage: npm run admin -- deactivate <username>');
  });

  it('runs as a process: `npm run admin -- stats` prints the figures', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/admin/cli.ts', 'stats'], {
      env: { ...process.env, DATA_DIR: dataDir },
    });
    expect(JSON.parse(stdout)).toMatchObject({ users: { total: 3, deactivated: 1, admins: 1 } });
  });
});

async function login(api: ReturnType<typeof client>, username: string) {
  return (await api.post('/api/auth/login', { username, password: 'correct horse battery' })).body as {
    accessToken: string;
  };
}
