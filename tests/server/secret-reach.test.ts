// Secret chats reach every friend (docs/secret-chats.md "Reaching everyone"), on SQLite and (with TEST_PG_URL)
// PostgreSQL: a chat made with a friend who has no device yet, their first device announced to the members
// (secret:firstDevice) and committed in; key packages that expire after LIMITS.keyPackageTtlDays, a last-resort
// package handed out only when no other is left and kept; claims limited per claimer (429); and the plaintext
// routes refusing a secret chat's text and files.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits';
import { client, startTestServer, type TestServer } from './harness';
import { signedDevice } from './secret-helpers';
import { type Api, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

const CLAIMS_PER_MINUTE = 8;
const DAY = 24 * 60 * 60 * 1000;
let srv: TestServer;
let api: Api;

beforeAll(async () => {
  srv = await startTestServer({ secretClaimsPerMinute: CLAIMS_PER_MINUTE });
  api = client(srv.url);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

const blob = (n = 64) => randomBytes(n).toString('base64');
const packages = (n: number) => Array.from({ length: n }, () => blob());

/** Makes a device's key packages `days` old (the access tokens stay valid, as a moved clock would not keep them). */
async function age(deviceId: string, days: number): Promise<void> {
  await srv.server.ctx.db
    .updateTable('secret_key_packages')
    .set({ created_at: new Date(Date.now() - days * DAY).toISOString() })
    .where('device_id', '=', deviceId)
    .execute();
}
const claim = (u: TestUser, body: object) => api.post('/api/secret/key-packages/claim', body, u.accessToken);
const state = (u: TestUser, deviceId: string) => api.get(`/api/secret/state?deviceId=${deviceId}`, u.accessToken);

async function register(token: string, keyPackages: string[], lastResort?: string): Promise<string> {
  const res = await api.post(
    '/api/secret/devices',
    { keyPackages, ...(lastResort ? { lastResort } : {}), ...(await signedDevice(api, token)) },
    token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.device.id;
}

async function friends(...names: string[]): Promise<TestUser[]> {
  const users = await Promise.all(names.map((n) => api.user(n)));
  const [first, ...rest] = users as [TestUser, ...TestUser[]];
  for (const other of rest) await befriend(api, first, other);
  return users;
}

describe('key packages', () => {
  it(`expire after ${LIMITS.keyPackageTtlDays} days: never handed out, pruned, not counted`, async () => {
    const [anna, boris] = await friends('kpanna', 'kpboris');
    const old = await register(boris.accessToken, packages(3));
    await age(old, LIMITS.keyPackageTtlDays - 1);
    expect((await state(boris, old)).body.keyPackagesLeft).toBe(3);
    await age(old, LIMITS.keyPackageTtlDays + 1);
    const fresh = packages(1);
    await api.post('/api/secret/key-packages', { deviceId: old, keyPackages: fresh }, boris.accessToken);
    // The first three are older than the limit; the fourth is not.
    expect((await state(boris, old)).body).toMatchObject({ keyPackagesLeft: 1, lastResort: false });
    const got = await claim(anna, { userIds: [boris.user.id] });
    expect(got.body.packages.map((p: { keyPackage: string }) => p.keyPackage)).toEqual(fresh);
    const none = await claim(anna, { userIds: [boris.user.id] });
    expect(none.body).toEqual({ packages: [], unavailable: [boris.user.id] });
    const rows = await srv.server.ctx.db
      .selectFrom('secret_key_packages')
      .select('id')
      .where('device_id', '=', old)
      .execute();
    expect(rows).toEqual([]);
  });

  it('hands out the last-resort package only when no other is left, and keeps it; a new one replaces it', async () => {
    const [anna, boris] = await friends('lranna', 'lrboris');
    const oneTime = blob();
    const lastResort = blob();
    const device = await register(boris.accessToken, [oneTime], lastResort);
    expect((await state(boris, device)).body).toMatchObject({ keyPackagesLeft: 1, lastResort: true });
    const taken = async () =>
      (await claim(anna, { userIds: [boris.user.id] })).body.packages.map((p: { keyPackage: string }) => p.keyPackage);
    expect(await taken()).toEqual([oneTime]);
    expect(await taken()).toEqual([lastResort]);
    expect(await taken()).toEqual([lastResort]);
    expect((await state(boris, device)).body).toMatchObject({ keyPackagesLeft: 0, lastResort: true });
    // New one-time packages come first again; a new last-resort package replaces the old one.
    const more = blob();
    const nextResort = blob();
    const up = await api.post(
      '/api/secret/key-packages',
      { deviceId: device, keyPackages: [more], lastResort: nextResort },
      boris.accessToken,
    );
    expect(up.body).toEqual({ keyPackagesLeft: 1 });
    expect(await taken()).toEqual([more]);
    expect(await taken()).toEqual([nextResort]);
    // The old last-resort package counts as used: it cannot come back.
    const reused = await api.post(
      '/api/secret/key-packages',
      { deviceId: device, keyPackages: [blob()], lastResort },
      boris.accessToken,
    );
    expect(reused.status).toBe(409);
    // It expires like any other.
    await age(device, LIMITS.keyPackageTtlDays + 1);
    expect(await taken()).toEqual([]);
    expect((await state(boris, device)).body).toMatchObject({ keyPackagesLeft: 0, lastResort: false });
  });

  it('limits claims per claimer: a flood gets 429 in Russian, others still claim', async () => {
    const [anna, boris, vera] = await friends('flanna', 'flboris', 'flvera');
    await befriend(api, vera, boris);
    await register(boris.accessToken, packages(LIMITS.keyPackagesPerUpload));
    const statuses: number[] = [];
    for (let i = 0; i < CLAIMS_PER_MINUTE + 2; i++) {
      const res = await claim(anna, { userIds: [boris.user.id] });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body.message).toMatch(/^Слишком много запросов ключей\. Повторите через \d+ с\.$/);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, CLAIMS_PER_MINUTE).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(CLAIMS_PER_MINUTE)).toEqual([429, 429]);
    // A refused claim took nothing: Борис has what the first claims left, and Вера's budget is her own.
    const left = LIMITS.keyPackagesPerUpload - CLAIMS_PER_MINUTE;
    const veras = await claim(vera, { userIds: [boris.user.id] });
    expect(veras.status).toBe(200);
    expect(veras.body.packages).toHaveLength(1);
    const rows = await srv.server.ctx.db
      .selectFrom('secret_key_packages')
      .select('id')
      .where('user_id', '=', boris.user.id)
      .execute();
    expect(rows).toHaveLength(left - 1);
  });
});

describe('a friend without a device', () => {
  it('makes the chat with the creator alone, lists who has no device, and announces their first one', async () => {
    const [anna, boris] = await friends('ndanna', 'ndboris');
    const a1 = await register(anna.accessToken, packages(2));
    const make = (body: object) =>
      api.post(
        '/api/secret/conversations',
        { deviceId: a1, memberIds: [boris.user.id], groupId: blob(32), ...body },
        anna.accessToken,
      );
    // A welcome for no one, or devices without their welcome: refused, nothing made.
    const stray = await make({ deviceIds: [], welcome: blob(200) });
    expect(stray.status).toBe(400);
    expect(stray.body.message).toMatch(/[а-я]/);
    expect((await make({ deviceIds: [randomUUID()] })).status).toBe(400);
    // Борис has signed in, never in a browser: he has no device.
    const made = await make({ deviceIds: [] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const chat = made.body.conversation.id;
    expect(made.body.conversation.secret).toBe(true);
    const seen = (await state(anna, a1)).body.groups.find((g: { conversationId: string }) => g.conversationId === chat);
    expect(seen).toMatchObject({ epoch: 1, member: true, toAdd: [], withoutDevice: [boris.user.id] });

    // Борис signs in on a browser: the members hear that he has a first device, and it is Анна's to add.
    const annaSocket = await connect(srv.url, anna.accessToken);
    const heard = recorder(annaSocket);
    const first = next(annaSocket, 'secret:firstDevice');
    const again = await api.post('/api/auth/login', { username: boris.username, password: boris.password });
    const b1 = await register(again.body.accessToken, packages(2));
    expect(await first).toEqual({ userId: boris.user.id, conversationIds: [chat] });
    const now = (await state(anna, a1)).body.groups.find((g: { conversationId: string }) => g.conversationId === chat);
    expect(now).toMatchObject({ toAdd: [{ userId: boris.user.id, deviceId: b1 }], withoutDevice: [] });
    const added = await api.post(
      '/api/secret/commits',
      { conversationId: chat, deviceId: a1, epoch: 1, commit: blob(), welcome: blob(), added: [b1] },
      anna.accessToken,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    // His second browser is no first device: secret:pending only.
    const third = await api.post('/api/auth/login', { username: boris.username, password: boris.password });
    const pending = next(annaSocket, 'secret:pending', (p: { conversationIds: string[] }) =>
      p.conversationIds.includes(chat),
    );
    await register(third.body.accessToken, packages(1));
    await pending;
    await roundTrip(annaSocket);
    expect(heard.events().filter((e) => e === 'secret:firstDevice')).toHaveLength(1);
  });

  it('refuses plaintext sends of text and of uploaded files to a secret chat, storing nothing', async () => {
    const [anna, boris] = await friends('ptanna', 'ptboris');
    const a1 = await register(anna.accessToken, packages(1));
    const made = await api.post(
      '/api/secret/conversations',
      { deviceId: a1, memberIds: [boris.user.id], groupId: blob(32), deviceIds: [] },
      anna.accessToken,
    );
    const chat = made.body.conversation.id;
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('открытый файл')], { type: 'text/plain' }), 'plain.txt');
    const uploaded = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${anna.accessToken}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { url } = ((await uploaded.json()) as { attachment: { url: string } }).attachment;
    for (const body of [
      { conversationId: chat, type: 'TEXT', content: 'открытым текстом' },
      { conversationId: chat, type: 'FILE', content: '', attachments: [{ url, type: 'FILE' }] },
    ]) {
      const res = await api.post('/api/conversations/send', body, anna.accessToken);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBe('В секретном чате сообщения шифруются на устройстве');
    }
    const rows = await srv.server.ctx.db
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', '=', chat)
      .execute();
    expect(rows).toEqual([]);
  });
});
