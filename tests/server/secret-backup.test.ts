// The recovery key's backup over the real server (docs/secret-chats.md "The recovery key"), on SQLite and (with
// TEST_PG_URL) PostgreSQL: a person's key (salt, iterations, check value) and opaque chunks, each person's alone —
// another person neither reads nor adds to them, a chunk names only a secret chat its writer is in — the size
// limits, a new key replacing the old one (its chunks gone, its version refused), deletion, and bad input answered
// with a 4xx in Russian that changes nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_LIMITS } from '../../src/contract/secret-backup';
import { client, startTestServer, type TestServer } from './harness';
import { signedDevice } from './secret-helpers';
import { type Api, befriend, closeAll, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let secretId: string;
let plainId: string;

const blob = (n = 48) => randomBytes(n).toString('base64');
const key = () => ({ salt: blob(16), iterations: 600_000, check: blob(44) });
const info = (token: string) => api.get('/api/secret/backup', token);
const setKey = (token: string, body: object) => api.post('/api/secret/backup/key', body, token);
const upload = (token: string, body: object) => api.post('/api/secret/backup', body, token);
const chunks = (token: string, after = 0) => api.get(`/api/secret/backup/chunks?after=${after}`, token);
const remove = (token: string) => api.call('DELETE', '/api/secret/backup', { token });

async function register(token: string): Promise<string> {
  const res = await api.post(
    '/api/secret/devices',
    { keyPackages: [blob(64), blob(64)], ...(await signedDevice(api, token)) },
    token,
  );
  expect(res.status).toBe(200);
  return res.body.device.id;
}

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, vera] = await Promise.all(['anna', 'boris', 'vera'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
  const a1 = await register(anna.accessToken);
  const b1 = await register(boris.accessToken);
  const made = await api.post(
    '/api/secret/conversations',
    { deviceId: a1, memberIds: [boris.user.id], deviceIds: [b1], groupId: blob(32), welcome: blob(200) },
    anna.accessToken,
  );
  expect(made.status).toBe(200);
  secretId = made.body.conversation.id;
  plainId = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body.conversation
    .id;
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

describe('the recovery key and its backup', () => {
  it('keeps a key and chunks for their owner only, oldest first, in pages', async () => {
    expect((await info(anna.accessToken)).body).toEqual({ backup: null });
    expect((await chunks(anna.accessToken)).status).toBe(404);
    const k = key();
    const set = await setKey(anna.accessToken, k);
    expect(set.status).toBe(200);
    expect(set.body.backup).toMatchObject({ version: 1, salt: k.salt, iterations: k.iterations, check: k.check });
    expect(set.body.backup).toMatchObject({ chunks: 0, size: 0 });

    const bodies = Array.from({ length: BACKUP_LIMITS.page + 3 }, () => blob(90));
    for (const [i, entries] of bodies.entries()) {
      const res = await upload(anna.accessToken, {
        version: 1,
        entries,
        ...(i % 2 ? { conversationId: secretId } : {}),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const first = await chunks(anna.accessToken);
    expect(first.status).toBe(200);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.chunks).toHaveLength(BACKUP_LIMITS.page);
    const last = first.body.chunks.at(-1).seq;
    const rest = await chunks(anna.accessToken, last);
    expect(rest.body.hasMore).toBe(false);
    const all = [...first.body.chunks, ...rest.body.chunks];
    expect(all.map((c: { entries: string }) => c.entries)).toEqual(bodies);
    expect(all[1]).toMatchObject({ version: 1, conversationId: secretId });
    expect(all[0].conversationId).toBeNull();
    const now = (await info(anna.accessToken)).body.backup;
    expect(now.chunks).toBe(bodies.length);
    expect(now.size).toBe(bodies.reduce((n, b) => n + b.length, 0));

    // Boris sees none of it and has none of his own; he cannot add to Anna's.
    expect((await info(boris.accessToken)).body).toEqual({ backup: null });
    expect((await chunks(boris.accessToken)).status).toBe(404);
    const his = await upload(boris.accessToken, { version: 1, entries: blob() });
    expect(his.status).toBe(404);
    expect(his.body.message).toBe('Ключ восстановления не настроен');
    expect((await info(anna.accessToken)).body.backup.chunks).toBe(bodies.length);
    // Nor does anyone without a session.
    expect((await api.get('/api/secret/backup')).status).toBe(401);
    expect((await api.post('/api/secret/backup', { version: 1, entries: blob() })).status).toBe(401);
    expect((await api.call('DELETE', '/api/secret/backup')).status).toBe(401);
  });

  it('takes a chunk for a secret chat of its writer only', async () => {
    await setKey(vera.accessToken, key());
    const notHers = await upload(vera.accessToken, { version: 1, conversationId: secretId, entries: blob() });
    expect(notHers.status).toBe(404);
    expect(notHers.body.message).toBe('Беседа не найдена');
    const plain = await upload(anna.accessToken, { version: 1, conversationId: plainId, entries: blob() });
    expect(plain.status).toBe(400);
    expect(plain.body.message).toBe('Это не секретный чат');
    expect((await info(vera.accessToken)).body.backup.chunks).toBe(0);
  });

  it('a new key replaces the old one: its chunks go and its version is refused', async () => {
    const u = await api.user('gleb');
    await setKey(u.accessToken, key());
    await upload(u.accessToken, { version: 1, entries: blob() });
    const again = await setKey(u.accessToken, key());
    expect(again.body.backup).toMatchObject({ version: 2, chunks: 0, size: 0 });
    const old = await upload(u.accessToken, { version: 1, entries: blob() });
    expect(old.status).toBe(409);
    expect(old.body.message).toBe('Ключ восстановления сменился: введите новый ключ');
    expect((await upload(u.accessToken, { version: 2, entries: blob() })).status).toBe(200);
    expect((await chunks(u.accessToken)).body.chunks.map((c: { version: number }) => c.version)).toEqual([2]);
  });

  it('deleting the key deletes the backup', async () => {
    const u = await api.user('dina');
    await setKey(u.accessToken, key());
    await upload(u.accessToken, { version: 1, entries: blob() });
    const res = await remove(u.accessToken);
    expect(res.status).toBe(200);
    expect((await info(u.accessToken)).body).toEqual({ backup: null });
    expect((await chunks(u.accessToken)).status).toBe(404);
    expect((await upload(u.accessToken, { version: 1, entries: blob() })).status).toBe(404);
    const rows = await srv.server.ctx.db
      .selectFrom('secret_backup_chunks')
      .select('id')
      .where('user_id', '=', u.user.id)
      .execute();
    expect(rows).toHaveLength(0);
    // Deleting what is not there is no error.
    expect((await remove(u.accessToken)).status).toBe(200);
  });

  it('deleting the account deletes the backup', async () => {
    const u = await api.user('ilya');
    await setKey(u.accessToken, key());
    await upload(u.accessToken, { version: 1, entries: blob() });
    expect((await api.post('/api/auth/account/delete', { password: u.password }, u.accessToken)).status).toBe(200);
    const db = srv.server.ctx.db;
    expect(await db.selectFrom('secret_backups').select('user_id').where('user_id', '=', u.user.id).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('secret_backup_chunks').select('id').where('user_id', '=', u.user.id).execute()).toEqual(
      [],
    );
  });

  it('keeps a chunk and the whole backup under their limits', async () => {
    const u = await api.user('egor');
    await setKey(u.accessToken, key());
    const big = 'A'.repeat(BACKUP_LIMITS.chunkMaxChars + 4);
    const tooBig = await upload(u.accessToken, { version: 1, entries: big });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.message).toBe('entries: Резервная копия: слишком большое значение');
    // Fill up to the limit with chunks of the largest size, then one more is refused.
    const chunk = 'A'.repeat(BACKUP_LIMITS.chunkMaxChars);
    const fit = Math.floor(BACKUP_LIMITS.totalMaxChars / chunk.length);
    await srv.server.ctx.db
      .updateTable('secret_backups')
      .set({ size: (fit - 1) * chunk.length })
      .where('user_id', '=', u.user.id)
      .execute();
    expect((await upload(u.accessToken, { version: 1, entries: chunk })).status).toBe(200);
    const full = await upload(u.accessToken, { version: 1, entries: chunk });
    expect(full.status).toBe(400);
    expect(full.body.message).toMatch(/^Резервная копия переполнена/);
    expect((await info(u.accessToken)).body.backup).toMatchObject({ chunks: 1, size: fit * chunk.length });
  });

  it('refuses bad input with a 4xx in Russian and changes nothing', async () => {
    const u = await api.user('zoya');
    const bad: object[] = [
      {},
      { salt: 'не base64!', iterations: 600_000, check: blob(44) },
      { salt: blob(16), iterations: 10, check: blob(44) },
      { salt: blob(16), iterations: 600_000.5, check: blob(44) },
      { salt: blob(16), iterations: 600_000, check: '' },
      { ...key(), extra: 1 },
    ];
    for (const body of bad) {
      const res = await setKey(u.accessToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    const raw = await api.call('POST', '/api/secret/backup/key', { token: u.accessToken, raw: '{"salt":' });
    expect(raw.status).toBe(400);
    expect((await info(u.accessToken)).body).toEqual({ backup: null });
    await setKey(u.accessToken, key());
    const badChunks: object[] = [
      { entries: blob() },
      { version: 0, entries: blob() },
      { version: 1, entries: '' },
      { version: 1, entries: 'плохо' },
      { version: 1, entries: blob(), conversationId: '../x' },
      { version: 1, entries: blob(), more: true },
    ];
    for (const body of badChunks) {
      const res = await upload(u.accessToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    expect((await chunks(u.accessToken, -1)).status).toBe(400);
    expect((await api.get('/api/secret/backup/chunks?after=x', u.accessToken)).status).toBe(400);
    expect((await info(u.accessToken)).body.backup).toMatchObject({ chunks: 0, size: 0 });
  });
});
