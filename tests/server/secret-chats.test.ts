// Secret chats over the real server (docs/secret-chats.md), on SQLite and (with TEST_PG_URL) PostgreSQL: the server as
// MLS's delivery service. Devices and one-time key packages, creating a secret chat with its welcome, commits ordered
// by epoch (a stale one 409, two racing ones: one wins), welcomes only for their devices, the log's pages and where a
// device's reading ends, state (devices to add and remove) after sign-ins begin and end, ENCRYPTED messages through
// the ordinary pipeline, the plaintext routes refusing secret chats, ciphertext never searchable, and no bad input
// answered with 500. MLS bodies are opaque base64 here: the server never reads them.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../src/contract/limits';
import { client, startTestServer, type TestServer } from './harness';
import { signedDevice } from './secret-helpers';
import { type Api, ack, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let gleb: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, vera, gleb] = await Promise.all(['anna', 'boris', 'vera', 'gleb'].map((n) => api.user(n)));
  for (const other of [boris, vera]) await befriend(api, anna, other);
  await befriend(api, boris, vera);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

/** Opaque base64 of n random bytes (what the client's encoder writes). */
const blob = (n = 48) => randomBytes(n).toString('base64');
const packages = (n: number) => Array.from({ length: n }, () => blob(64));

/** Another sign-in of the same person (a second browser): its own access token. */
async function signInAgain(u: TestUser): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await api.post('/api/auth/login', { username: u.username, password: u.password });
  expect(res.status).toBe(200);
  return res.body;
}

async function register(token: string, n = 3): Promise<string> {
  const res = await api.post(
    '/api/secret/devices',
    { keyPackages: packages(n), ...(await signedDevice(api, token)) },
    token,
  );
  expect(res.status).toBe(200);
  return res.body.device.id;
}

const claim = (token: string, body: object) => api.post('/api/secret/key-packages/claim', body, token);
const log = (token: string, conversationId: string, deviceId: string, after = 0) =>
  api.get(`/api/secret/conversations/${conversationId}/log?deviceId=${deviceId}&after=${after}`, token);
const state = (token: string, deviceId: string) => api.get(`/api/secret/state?deviceId=${deviceId}`, token);
const commit = (token: string, body: object) => api.post('/api/secret/commits', body, token);
const secretSend = (token: string, body: object) => api.post('/api/secret/send', body, token);
const cid = () => `c-${randomBytes(6).toString('hex')}`;

async function createSecret(
  token: string,
  deviceId: string,
  memberIds: string[],
  deviceIds: string[],
  title?: string,
): Promise<{ id: string; secret: boolean; isGroup: boolean }> {
  const res = await api.post(
    '/api/secret/conversations',
    { deviceId, memberIds, deviceIds, title, groupId: blob(32), welcome: blob(200) },
    token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.conversation;
}

async function messageCount(conversationId: string): Promise<number> {
  const row = await srv.server.ctx.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('conversation_id', '=', conversationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('devices and key packages', () => {
  it('registers a sign-in once: a second call is the same device and adds its key packages', async () => {
    const u = await api.user('dev');
    const first = await api.post(
      '/api/secret/devices',
      { keyPackages: packages(3), ...(await signedDevice(api, u.accessToken)) },
      u.accessToken,
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ device: { userId: u.user.id }, keyPackagesLeft: 3 });
    const again = await api.post(
      '/api/secret/devices',
      { keyPackages: packages(2), ...(await signedDevice(api, u.accessToken)) },
      u.accessToken,
    );
    expect(again.body).toEqual({ device: first.body.device, keyPackagesLeft: 5 });
    // Another sign-in is another device.
    const other = await signInAgain(u);
    expect(await register(other.accessToken, 1)).not.toBe(first.body.device.id);
  });

  it('keeps at most keyPackagesKeep + keyPackagesPerUpload per device, and only for its owner', async () => {
    const u = await api.user('kp');
    const device = await register(u.accessToken, LIMITS.keyPackagesPerUpload);
    const more = (n: number, token = u.accessToken, deviceId = device) =>
      api.post('/api/secret/key-packages', { deviceId, keyPackages: packages(n) }, token);
    expect((await more(LIMITS.keyPackagesKeep)).body).toEqual({
      keyPackagesLeft: LIMITS.keyPackagesKeep + LIMITS.keyPackagesPerUpload,
    });
    const over = await more(1);
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/пакетов ключей/);
    expect((await state(u.accessToken, device)).body.keyPackagesLeft).toBe(
      LIMITS.keyPackagesKeep + LIMITS.keyPackagesPerUpload,
    );
    const stranger = await api.user('kps');
    expect((await more(1, stranger.accessToken)).status).toBe(403);
    expect((await more(1, u.accessToken, 'no-such-device')).status).toBe(404);
    const tooMany = await api.post(
      '/api/secret/key-packages',
      { deviceId: device, keyPackages: packages(LIMITS.keyPackagesPerUpload + 1) },
      u.accessToken,
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/Не больше/);
  });

  it(`refuses a device beyond ${LIMITS.secretDevicesMax} live ones per person`, async () => {
    const u = await api.user('many');
    const at = new Date().toISOString();
    await srv.server.ctx.db
      .insertInto('secret_devices')
      .values(
        Array.from({ length: LIMITS.secretDevicesMax }, (_, i) => ({
          id: `many-${u.user.id}-${i}`,
          user_id: u.user.id,
          session_id: `many-session-${u.user.id}-${i}`,
          created_at: at,
          revoked_at: null,
        })),
      )
      .execute();
    const res = await api.post(
      '/api/secret/devices',
      { keyPackages: packages(1), ...(await signedDevice(api, u.accessToken)) },
      u.accessToken,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/устройствах/);
  });

  it('hands a key package out once: the next claim gets another, then none', async () => {
    const u = await api.user('claimed');
    await befriend(api, anna, u);
    await register(u.accessToken, 2);
    const first = await claim(anna.accessToken, { userIds: [u.user.id] });
    expect(first.status).toBe(200);
    expect(first.body.packages).toHaveLength(1);
    const second = await claim(anna.accessToken, { userIds: [u.user.id] });
    expect(second.body.packages).toHaveLength(1);
    expect(second.body.packages[0].keyPackage).not.toBe(first.body.packages[0].keyPackage);
    const third = await claim(anna.accessToken, { userIds: [u.user.id] });
    expect(third.body).toEqual({ packages: [], unavailable: [u.user.id] });
  });

  it('refuses a key package uploaded before, even once handed out, and stores nothing', async () => {
    const u = await api.user('reuse');
    await befriend(api, anna, u);
    const [kp, other] = packages(2) as [string, string];
    const first = await api.post(
      '/api/secret/devices',
      { keyPackages: [kp], ...(await signedDevice(api, u.accessToken)) },
      u.accessToken,
    );
    expect(first.status).toBe(200);
    const deviceId = first.body.device.id as string;
    const upload = (keyPackages: string[], token = u.accessToken) =>
      api.post('/api/secret/key-packages', { deviceId, keyPackages }, token);
    // The same bytes again, alone or beside a new one, or twice in one upload: 409 and nothing stored.
    for (const keyPackages of [[kp], [other, kp], [other, other]]) {
      const res = await upload(keyPackages);
      expect(res.status, JSON.stringify(keyPackages.length)).toBe(409);
      expect(res.body.message).toBe('Этот пакет ключей уже был загружен: каждый используется один раз');
    }
    expect((await state(u.accessToken, deviceId)).body.keyPackagesLeft).toBe(1);
    // Handed out and deleted, it stays used: uploading it again is refused too.
    const claimed = await claim(anna.accessToken, { userIds: [u.user.id] });
    expect(claimed.body.packages[0].keyPackage).toBe(kp);
    expect((await upload([kp])).status).toBe(409);
    // Another sign-in cannot register with it either (and no device is made).
    const second = await signInAgain(u);
    const again = await api.post(
      '/api/secret/devices',
      { keyPackages: [kp], ...(await signedDevice(api, second.accessToken)) },
      second.accessToken,
    );
    expect(again.status).toBe(409);
    const devices = await srv.server.ctx.db
      .selectFrom('secret_devices')
      .select('id')
      .where('user_id', '=', u.user.id)
      .execute();
    expect(devices.map((d) => d.id)).toEqual([deviceId]);
    // A fresh package is taken.
    expect((await upload([other])).body).toEqual({ keyPackagesLeft: 1 });
    // Two uploads of one package racing: one takes it, the other is 409 (never a 500).
    const [raced] = packages(1) as [string];
    const statuses = (await Promise.all([upload([raced]), upload([raced])])).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 409]);
    expect((await state(u.accessToken, deviceId)).body.keyPackagesLeft).toBe(2);
  });

  it('gives two racing claims two different packages', async () => {
    const u = await api.user('race');
    await befriend(api, anna, u);
    await befriend(api, boris, u);
    await register(u.accessToken, 2);
    const [a, b] = await Promise.all([
      claim(anna.accessToken, { userIds: [u.user.id] }),
      claim(boris.accessToken, { userIds: [u.user.id] }),
    ]);
    expect(a.body.packages).toHaveLength(1);
    expect(b.body.packages).toHaveLength(1);
    expect(a.body.packages[0].keyPackage).not.toBe(b.body.packages[0].keyPackage);
  });

  it("claims only friends', one's own other devices' and a secret chat's members' packages", async () => {
    const u = await api.user('owner');
    const mine = await register(u.accessToken, 2);
    const second = await signInAgain(u);
    const other = await register(second.accessToken, 2);
    // A stranger: 403, and nothing is taken.
    const refused = await claim(gleb.accessToken, { userIds: [u.user.id] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/друзей/);
    expect((await state(u.accessToken, mine)).body.keyPackagesLeft).toBe(2);
    // One's own other device, never the calling one.
    const own = await claim(u.accessToken, { userIds: [u.user.id] });
    expect(own.body.packages.map((p: { deviceId: string }) => p.deviceId)).toEqual([other]);
    // deviceIds narrows it.
    const none = await claim(u.accessToken, { userIds: [u.user.id], deviceIds: [mine] });
    expect(none.body).toEqual({ packages: [], unavailable: [u.user.id] });
  });
});

describe('a secret chat: creation, commits, the log', () => {
  let a1: string;
  let b1: string;
  let v1: string;
  let chat: string;

  beforeAll(async () => {
    a1 = await register(anna.accessToken, 5);
    b1 = await register(boris.accessToken, 5);
    v1 = await register(vera.accessToken, 5);
  });

  it('creates a secret group with its welcome, announced like any new conversation', async () => {
    const borisSocket = await connect(srv.url, boris.accessToken);
    const got = next(borisSocket, 'conversations:new');
    const logged = next(borisSocket, 'secret:log');
    const claimed = await claim(anna.accessToken, { userIds: [boris.user.id, vera.user.id] });
    const deviceIds = claimed.body.packages.map((p: { deviceId: string }) => p.deviceId);
    expect(deviceIds.sort()).toEqual([b1, v1].sort());
    const conversation = await createSecret(anna.accessToken, a1, [boris.user.id, vera.user.id], deviceIds, 'Тайна');
    chat = conversation.id;
    expect(conversation).toMatchObject({ secret: true, isGroup: true, title: 'Тайна' });
    expect((await got).conversation).toMatchObject({ id: chat, secret: true });
    expect(await logged).toMatchObject({ conversationId: chat, epoch: 1 });
    // In the list too; a plaintext chat carries no flag.
    const list = await api.get('/api/conversations', boris.accessToken);
    const entry = list.body.conversations.find((e: { conversation: { id: string } }) => e.conversation.id === chat);
    expect(entry.conversation.secret).toBe(true);
    const plain = await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken);
    expect(plain.body.conversation.secret).toBeUndefined();
  });

  it('shows a welcome to the devices it names only', async () => {
    const forBoris = await log(boris.accessToken, chat, b1);
    expect(forBoris.status).toBe(200);
    expect(forBoris.body.entries).toMatchObject([{ kind: 'welcome', epoch: 0, deviceId: a1 }]);
    expect(forBoris.body.epoch).toBe(1);
    expect((await log(vera.accessToken, chat, v1)).body.entries).toHaveLength(1);
    // The creating device does not get it.
    expect((await log(anna.accessToken, chat, a1)).body.entries).toEqual([]);
    // Someone else's device, a non-member: refused.
    expect((await log(anna.accessToken, chat, b1)).status).toBe(403);
    expect((await log(gleb.accessToken, chat, b1)).status).toBe(403);
  });

  it('orders commits by epoch: a stale one is 409, and of two racing ones exactly one wins', async () => {
    const ok = await commit(anna.accessToken, { conversationId: chat, deviceId: a1, epoch: 1, commit: blob() });
    expect(ok.status).toBe(200);
    expect(ok.body.epoch).toBe(2);
    const stale = await commit(boris.accessToken, { conversationId: chat, deviceId: b1, epoch: 1, commit: blob() });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Группа уже изменилась: обновите состояние и повторите');
    const race = await Promise.all([
      commit(anna.accessToken, { conversationId: chat, deviceId: a1, epoch: 2, commit: blob() }),
      commit(boris.accessToken, { conversationId: chat, deviceId: b1, epoch: 2, commit: blob() }),
      commit(vera.accessToken, { conversationId: chat, deviceId: v1, epoch: 2, commit: blob() }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const entries = (await log(vera.accessToken, chat, v1)).body.entries;
    expect(entries.map((e: { kind: string; epoch: number }) => [e.kind, e.epoch])).toEqual([
      ['welcome', 0],
      ['commit', 1],
      ['commit', 2],
    ]);
  });

  it('adds a new sign-in: state lists it, a commit with its welcome brings it in', async () => {
    const annaSocket = await connect(srv.url, anna.accessToken);
    const pending = next(annaSocket, 'secret:pending', (p: { conversationIds: string[] }) =>
      p.conversationIds.includes(chat),
    );
    const second = await signInAgain(boris);
    const b2 = await register(second.accessToken, 2);
    await pending;
    // Its key packages, uploaded after the registration, are announced again: an adder that found only the
    // registration's may have given up.
    const again = next(annaSocket, 'secret:pending', (p: { conversationIds: string[] }) =>
      p.conversationIds.includes(chat),
    );
    const uploaded = await api.post(
      '/api/secret/key-packages',
      { deviceId: b2, keyPackages: packages(2) },
      second.accessToken,
    );
    expect(uploaded.status).toBe(200);
    await again;
    const before = await state(anna.accessToken, a1);
    const group = before.body.groups.find((g: { conversationId: string }) => g.conversationId === chat);
    expect(group).toEqual({
      conversationId: chat,
      epoch: 3,
      member: true,
      toAdd: [{ userId: boris.user.id, deviceId: b2 }],
      toRemove: [],
      withoutDevice: [],
      memberIds: [anna.user.id, boris.user.id, vera.user.id].sort(),
    });
    expect((await state(second.accessToken, b2)).body.groups[0]).toMatchObject({ conversationId: chat, member: false });
    // Not yet in the group: its log is closed.
    expect((await log(second.accessToken, chat, b2)).status).toBe(403);
    // Added without a welcome, or a device that is not a member's: 400.
    expect(
      (await commit(anna.accessToken, { conversationId: chat, deviceId: a1, epoch: 3, commit: blob(), added: [b2] }))
        .status,
    ).toBe(400);
    const glebDevice = await register(gleb.accessToken, 1);
    const foreign = await commit(anna.accessToken, {
      conversationId: chat,
      deviceId: a1,
      epoch: 3,
      commit: blob(),
      welcome: blob(),
      added: [glebDevice],
    });
    expect(foreign.status).toBe(400);
    const added = await commit(anna.accessToken, {
      conversationId: chat,
      deviceId: a1,
      epoch: 3,
      commit: blob(),
      welcome: blob(),
      added: [b2],
    });
    expect(added.status).toBe(200);
    // The new device reads its welcome and nothing before it; the others read the commit but not the welcome.
    const b2log = await log(second.accessToken, chat, b2);
    expect(b2log.body.entries).toMatchObject([{ kind: 'welcome', epoch: 3, added: [b2] }]);
    const v1log = await log(vera.accessToken, chat, v1, 0);
    expect(v1log.body.entries.at(-1)).toMatchObject({ kind: 'commit', epoch: 3, added: [b2] });
    expect(v1log.body.entries.filter((e: { kind: string }) => e.kind === 'welcome')).toHaveLength(1);
    const after = await state(anna.accessToken, a1);
    expect(after.body.groups.find((g: { conversationId: string }) => g.conversationId === chat).toAdd).toEqual([]);
    // Once it is in, its uploads announce nothing for this chat (a third sign-in's registration is the marker).
    const heard: string[][] = [];
    annaSocket.on('secret:pending', (p: { conversationIds: string[] }) => heard.push(p.conversationIds));
    expect(
      (await api.post('/api/secret/key-packages', { deviceId: b2, keyPackages: packages(1) }, second.accessToken))
        .status,
    ).toBe(200);
    const marker = next(annaSocket, 'secret:pending', (p: { conversationIds: string[] }) =>
      p.conversationIds.includes(chat),
    );
    const third = await signInAgain(boris);
    await register(third.accessToken, 1);
    await marker;
    expect(heard).toEqual([[chat]]);
    annaSocket.disconnect();
  });

  it('pages the log', async () => {
    let epoch = (await state(anna.accessToken, a1)).body.groups.find(
      (g: { conversationId: string }) => g.conversationId === chat,
    ).epoch;
    for (let i = 0; i < LIMITS.secretLogPage; i++) {
      const res = await commit(anna.accessToken, { conversationId: chat, deviceId: a1, epoch, commit: blob(8) });
      expect(res.status).toBe(200);
      epoch = res.body.epoch;
    }
    const first = await log(vera.accessToken, chat, v1);
    expect(first.body.entries).toHaveLength(LIMITS.secretLogPage);
    expect(first.body.hasMore).toBe(true);
    const rest = await log(vera.accessToken, chat, v1, first.body.entries.at(-1).seq);
    expect(rest.body.hasMore).toBe(false);
    expect(rest.body.entries.length).toBeGreaterThan(0);
    expect(rest.body.epoch).toBe(epoch);
    const seqs = [...first.body.entries, ...rest.body.entries].map((e: { seq: number }) => e.seq);
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('sends ENCRYPTED messages through the ordinary pipeline, idempotent by clientMessageId', async () => {
    const epoch = (await log(anna.accessToken, chat, a1, 0)).body.epoch;
    const borisSocket = await connect(srv.url, boris.accessToken);
    expect(await ack(borisSocket, 'conversation:join', chat)).toEqual({ ok: true });
    const veraSocket = await connect(srv.url, vera.accessToken);
    const ciphertext = blob(300);
    const heard = next(borisSocket, 'message:new');
    const notified = next(veraSocket, 'message:notify');
    const clientMessageId = cid();
    const body = { conversationId: chat, deviceId: a1, epoch, ciphertext, clientMessageId };
    const sent = await secretSend(anna.accessToken, body);
    expect(sent.status).toBe(200);
    expect(sent.body.message).toMatchObject({ type: 'ENCRYPTED', content: ciphertext, senderId: anna.user.id });
    expect((await heard).message.id).toBe(sent.body.message.id);
    expect((await notified).message.id).toBe(sent.body.message.id);
    const again = await secretSend(anna.accessToken, body);
    expect(again.body.message.id).toBe(sent.body.message.id);
    // Another text under the same id: 409.
    expect((await secretSend(anna.accessToken, { ...body, ciphertext: blob(30) })).status).toBe(409);
    const entry = (await api.get('/api/conversations', vera.accessToken)).body.conversations.find(
      (e: { conversation: { id: string } }) => e.conversation.id === chat,
    );
    expect(entry.unreadCount).toBe(1);
    expect(entry.conversation.messages[0].type).toBe('ENCRYPTED');
    // Made in an older epoch: 409, nothing stored.
    const count = await messageCount(chat);
    const stale = await secretSend(anna.accessToken, { ...body, epoch: epoch - 1, clientMessageId: cid() });
    expect(stale.status).toBe(409);
    expect(await messageCount(chat)).toBe(count);
  });

  it('takes an edit or a reaction as a control message: no unread count, no preview, no notify, no push', async () => {
    const epoch = (await log(anna.accessToken, chat, a1, 0)).body.epoch;
    const entryOf = async (u: TestUser) =>
      (await api.get('/api/conversations', u.accessToken)).body.conversations.find(
        (e: { conversation: { id: string } }) => e.conversation.id === chat,
      );
    const before = await entryOf(vera);
    const borisSocket = await connect(srv.url, boris.accessToken);
    expect(await ack(borisSocket, 'conversation:join', chat)).toEqual({ ok: true });
    const veraSocket = await connect(srv.url, vera.accessToken);
    const veraHeard = recorder(veraSocket);
    const pushed = vi.spyOn(srv.server.ctx.push, 'message');
    try {
      const heard = next(borisSocket, 'message:new');
      const body = { conversationId: chat, deviceId: a1, epoch, ciphertext: blob(300), clientMessageId: cid() };
      const sent = await secretSend(anna.accessToken, { ...body, control: true });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body.message).toMatchObject({ type: 'ENCRYPTED', control: true });
      // The devices with the chat open read it (and apply it).
      expect((await heard).message).toMatchObject({ id: sent.body.message.id, control: true });
      await roundTrip(veraSocket);
      expect(veraHeard.events()).not.toContain('message:notify');
      expect(pushed).not.toHaveBeenCalled();
      const after = await entryOf(vera);
      expect(after.unreadCount).toBe(before.unreadCount);
      expect(after.conversation.messages[0].id).toBe(before.conversation.messages[0].id);
      expect((await entryOf(anna)).conversation.messages[0].id).toBe(before.conversation.messages[0].id);
      // The history has it, marked, so that a device that was away applies it.
      const page = await api.get(`/api/conversations/${chat}/messages`, vera.accessToken);
      expect(page.body.messages.find((m: { id: string }) => m.id === sent.body.message.id)).toMatchObject({
        control: true,
      });
      // The same clientMessageId without the mark is another message: 409.
      expect((await secretSend(anna.accessToken, body)).status).toBe(409);
      expect((await secretSend(anna.accessToken, { ...body, control: true })).body.message.id).toBe(
        sent.body.message.id,
      );
      // It is nothing to pin.
      const pin = await api.post('/api/messages/pin', { messageId: sent.body.message.id, on: true }, anna.accessToken);
      expect(pin.status).toBe(400);
      // An ordinary message after it is news as before.
      const notified = next(veraSocket, 'message:notify');
      const plain = await secretSend(anna.accessToken, { ...body, clientMessageId: cid() });
      expect((await notified).message.id).toBe(plain.body.message.id);
      expect(pushed).toHaveBeenCalledTimes(1);
      expect((await entryOf(vera)).unreadCount).toBe(before.unreadCount + 1);
      // Reading the chat clears the count though the control message is never read.
      const read = await api.post(
        '/api/messages/receipts',
        { messageIds: [plain.body.message.id], status: 'READ' },
        vera.accessToken,
      );
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect((await entryOf(vera)).unreadCount).toBe(0);
    } finally {
      pushed.mockRestore();
    }
  });

  it('refuses a control mark that is not true, storing nothing', async () => {
    const epoch = (await log(anna.accessToken, chat, a1, 0)).body.epoch;
    const count = await messageCount(chat);
    for (const control of [false, 'yes', 1, null]) {
      const res = await secretSend(anna.accessToken, {
        conversationId: chat,
        deviceId: a1,
        epoch,
        ciphertext: blob(),
        clientMessageId: cid(),
        control,
      });
      expect(res.status, JSON.stringify(control)).toBe(400);
      expect(res.body.message).toMatch(/[а-я]/);
    }
    expect(await messageCount(chat)).toBe(count);
  });

  it('refuses plaintext in a secret chat and ciphertext in a plaintext one, storing nothing', async () => {
    const epoch = (await log(anna.accessToken, chat, a1, 0)).body.epoch;
    const count = await messageCount(chat);
    const plain = await api.post(
      '/api/conversations/send',
      { conversationId: chat, type: 'TEXT', content: 'открытым текстом' },
      anna.accessToken,
    );
    expect(plain.status).toBe(400);
    expect(plain.body.message).toBe('В секретном чате сообщения шифруются на устройстве');
    const direct = await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken);
    const normal = direct.body.conversation.id;
    const wrongChat = await secretSend(anna.accessToken, {
      conversationId: normal,
      deviceId: a1,
      epoch: 0,
      ciphertext: blob(),
      clientMessageId: cid(),
    });
    expect(wrongChat.status).toBe(400);
    expect(wrongChat.body.message).toBe('Это не секретный чат');
    const base = { conversationId: chat, deviceId: a1, epoch };
    const oversized = await secretSend(anna.accessToken, {
      ...base,
      ciphertext: 'A'.repeat(LIMITS.ciphertextMaxChars + 4),
      clientMessageId: cid(),
    });
    expect(oversized.status).toBe(400);
    expect(oversized.body.message).toMatch(/слишком большой/);
    const invalid = await secretSend(anna.accessToken, { ...base, ciphertext: 'не base64!', clientMessageId: cid() });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatch(/ожидается base64/);
    expect(await messageCount(chat)).toBe(count);
    expect(await messageCount(normal)).toBe(0);
    // Edits and reactions travel encrypted; forwarding ciphertext anywhere is refused.
    const sent = await secretSend(anna.accessToken, { ...base, ciphertext: blob(), clientMessageId: cid() });
    const messageId = sent.body.message.id;
    const edit = await api.post('/api/messages/edit', { messageId, content: 'правка' }, anna.accessToken);
    expect(edit.status).toBe(400);
    expect(edit.body.message).toBe('В секретном чате сообщения шифруются на устройстве');
    expect(
      (await api.post('/api/messages/react', { messageId, emoji: '👍', on: true }, boris.accessToken)).status,
    ).toBe(400);
    const fwd = await api.post(
      '/api/messages/forward',
      { messageIds: [messageId], conversationIds: [normal] },
      anna.accessToken,
    );
    expect(fwd.status).toBe(400);
    // Deleting one's own ciphertext stays possible.
    expect((await api.post('/api/messages/delete', { messageId }, anna.accessToken)).status).toBe(200);
  });

  it('never indexes ciphertext for search', async () => {
    const epoch = (await log(anna.accessToken, chat, a1, 0)).body.epoch;
    const word = `Sekretnoeslovo${randomBytes(4).toString('hex')}`;
    const sent = await secretSend(anna.accessToken, {
      conversationId: chat,
      deviceId: a1,
      epoch,
      ciphertext: word,
      clientMessageId: cid(),
    });
    expect(sent.status).toBe(200);
    // The same word in a plaintext chat is found: the index works, and skips the secret one.
    const direct = await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken);
    await api.post(
      '/api/conversations/send',
      { conversationId: direct.body.conversation.id, type: 'TEXT', content: word },
      anna.accessToken,
    );
    const found = await api.get(`/api/search?q=${word}`, boris.accessToken);
    expect(found.status).toBe(200);
    expect(found.body.results.map((r: { message: { conversationId: string } }) => r.message.conversationId)).toEqual([
      direct.body.conversation.id,
    ]);
  });

  it("ends a removed device's reading at the commit that removed it", async () => {
    const third = await signInAgain(boris);
    const b3 = await register(third.accessToken, 1);
    let epoch = (await log(anna.accessToken, chat, a1, 0)).body.epoch;
    const add = await commit(anna.accessToken, {
      conversationId: chat,
      deviceId: a1,
      epoch,
      commit: blob(),
      welcome: blob(),
      added: [b3],
    });
    epoch = add.body.epoch;
    const remove = await commit(anna.accessToken, {
      conversationId: chat,
      deviceId: a1,
      epoch,
      commit: blob(),
      removed: [b3],
    });
    expect(remove.status).toBe(200);
    epoch = remove.body.epoch;
    await commit(anna.accessToken, { conversationId: chat, deviceId: a1, epoch, commit: blob() });
    const read = await log(third.accessToken, chat, b3);
    expect(read.status).toBe(200);
    expect(read.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['welcome', 'commit']);
    expect(read.body.entries.at(-1).seq).toBe(remove.body.seq);
    const send = await secretSend(third.accessToken, {
      conversationId: chat,
      deviceId: b3,
      epoch: epoch + 1,
      ciphertext: blob(),
      clientMessageId: cid(),
    });
    expect(send.status).toBe(403);
    // Removing a device that is not in the group: 400.
    const twice = await commit(anna.accessToken, {
      conversationId: chat,
      deviceId: a1,
      epoch: epoch + 1,
      commit: blob(),
      removed: [b3],
    });
    expect(twice.status).toBe(400);
  });

  it('revokes the device of a sign-in that ended: state lists it to remove, and it reads nothing', async () => {
    const fourth = await signInAgain(boris);
    const b4 = await register(fourth.accessToken, 2);
    const epoch = (await log(anna.accessToken, chat, a1, 0)).body.epoch;
    const added = await commit(anna.accessToken, {
      conversationId: chat,
      deviceId: a1,
      epoch,
      commit: blob(),
      welcome: blob(),
      added: [b4],
    });
    expect(added.status).toBe(200);
    const annaSocket = await connect(srv.url, anna.accessToken);
    const pending = next(annaSocket, 'secret:pending', (p: { conversationIds: string[] }) =>
      p.conversationIds.includes(chat),
    );
    expect((await api.post('/api/auth/logout', { refreshToken: fourth.refreshToken })).status).toBe(200);
    await pending;
    const group = (await state(anna.accessToken, a1)).body.groups.find(
      (g: { conversationId: string }) => g.conversationId === chat,
    );
    expect(group.toRemove).toEqual([b4]);
    expect(group.toAdd.map((d: { deviceId: string }) => d.deviceId)).not.toContain(b4);
    // Its token is gone; its id from another sign-in of the same person is refused, and its packages are gone.
    expect((await log(fourth.accessToken, chat, b4)).status).toBe(401);
    const revoked = await log(boris.accessToken, chat, b4);
    expect(revoked.status).toBe(403);
    expect(revoked.body.message).toMatch(/отключено/);
    expect((await claim(anna.accessToken, { userIds: [boris.user.id], deviceIds: [b4] })).body.packages).toEqual([]);
  });

  it("closes a removed member's log and sends at once, and asks the others to commit the removal", async () => {
    const borisSocket = await connect(srv.url, boris.accessToken);
    const pending = next(borisSocket, 'secret:pending', (p: { conversationIds: string[] }) =>
      p.conversationIds.includes(chat),
    );
    const removed = await api.post(
      '/api/conversations/members/remove',
      { conversationId: chat, userId: vera.user.id },
      anna.accessToken,
    );
    expect(removed.status).toBe(200);
    await pending;
    const epoch = (await log(anna.accessToken, chat, a1, 0)).body.epoch;
    expect((await log(vera.accessToken, chat, v1)).status).toBe(404);
    const send = await secretSend(vera.accessToken, {
      conversationId: chat,
      deviceId: v1,
      epoch,
      ciphertext: blob(),
      clientMessageId: cid(),
    });
    expect(send.status).toBe(404);
    const group = (await state(anna.accessToken, a1)).body.groups.find(
      (g: { conversationId: string }) => g.conversationId === chat,
    );
    expect(group.toRemove).toContain(v1);
    // Vera's state no longer lists the chat.
    expect(
      (await state(vera.accessToken, v1)).body.groups.map((g: { conversationId: string }) => g.conversationId),
    ).not.toContain(chat);
    // Key packages of a former member through this chat: 403 (not friends with boris? they are; gleb is not).
    expect((await claim(gleb.accessToken, { userIds: [anna.user.id], conversationId: chat })).status).toBe(404);
  });

  it('creates a secret direct chat apart from the plaintext one, refused to strangers', async () => {
    const claimed = await claim(anna.accessToken, { userIds: [boris.user.id], deviceIds: [b1] });
    const one = await createSecret(anna.accessToken, a1, [boris.user.id], [b1]);
    expect(one).toMatchObject({ secret: true, isGroup: false });
    expect(claimed.body.packages).toHaveLength(1);
    const plain = await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken);
    expect(plain.body.conversation.id).not.toBe(one.id);
    // A direct secret chat has no member management.
    const add = await api.post(
      '/api/conversations/members/add',
      { conversationId: one.id, userIds: [vera.user.id] },
      anna.accessToken,
    );
    expect(add.status).toBe(400);
    const gd = await register(gleb.accessToken, 1);
    const stranger = await api.post(
      '/api/secret/conversations',
      { deviceId: gd, memberIds: [anna.user.id], deviceIds: [a1], groupId: blob(16), welcome: blob() },
      gleb.accessToken,
    );
    expect(stranger.status).toBe(403);
    // A device that is not a member's, or the creating device itself.
    const wrong = await api.post(
      '/api/secret/conversations',
      { deviceId: a1, memberIds: [boris.user.id], deviceIds: [gd], groupId: blob(16), welcome: blob() },
      anna.accessToken,
    );
    expect(wrong.status).toBe(400);
    const self = await api.post(
      '/api/secret/conversations',
      { deviceId: a1, memberIds: [boris.user.id], deviceIds: [a1], groupId: blob(16), welcome: blob() },
      anna.accessToken,
    );
    expect(self.status).toBe(400);
  });
});

describe('bad input', () => {
  it('answers every malformed request with a 4xx in Russian, never 500', async () => {
    const token = anna.accessToken;
    const device = await register(token, 1);
    const big = 'A'.repeat(LIMITS.mlsMessageMaxChars + 4);
    const cases: [string, string, unknown][] = [
      ['POST', '/api/secret/devices', {}],
      ['POST', '/api/secret/devices', { keyPackages: [] }],
      ['POST', '/api/secret/devices', { keyPackages: ['***'] }],
      ['POST', '/api/secret/devices', { keyPackages: 'x' }],
      ['POST', '/api/secret/devices', { keyPackages: [blob()], extra: 1 }],
      ['POST', '/api/secret/key-packages', { deviceId: '../x', keyPackages: [blob()] }],
      ['POST', '/api/secret/key-packages/claim', { userIds: [] }],
      ['POST', '/api/secret/key-packages/claim', { userIds: ['nobody'] }],
      ['POST', '/api/secret/key-packages/claim', { userIds: [anna.user.id], conversationId: 'nope' }],
      ['POST', '/api/secret/conversations', { deviceId: device }],
      [
        'POST',
        '/api/secret/conversations',
        { deviceId: device, memberIds: ['nobody'], deviceIds: ['x'], groupId: blob(), welcome: blob() },
      ],
      [
        'POST',
        '/api/secret/conversations',
        { deviceId: 'nope', memberIds: [boris.user.id], deviceIds: ['x'], groupId: blob(), welcome: blob() },
      ],
      ['POST', '/api/secret/commits', { conversationId: 'nope', deviceId: device, epoch: 1, commit: blob() }],
      ['POST', '/api/secret/commits', { conversationId: 'nope', deviceId: device, epoch: -1, commit: blob() }],
      ['POST', '/api/secret/commits', { conversationId: 'nope', deviceId: device, epoch: 1, commit: big }],
      ['POST', '/api/secret/commits', { conversationId: 'nope', deviceId: device, epoch: 'one', commit: blob() }],
      ['GET', `/api/secret/conversations/nope/log?deviceId=${device}`, undefined],
      ['GET', `/api/secret/conversations/nope/log?deviceId=${device}&after=-5`, undefined],
      ['GET', `/api/secret/conversations/nope/log?deviceId=${device}&after=abc`, undefined],
      ['GET', '/api/secret/conversations/nope/log', undefined],
      ['GET', '/api/secret/state', undefined],
      ['GET', '/api/secret/state?deviceId=nope', undefined],
      ['POST', '/api/secret/send', { conversationId: 'nope', deviceId: device, epoch: 1, ciphertext: blob() }],
      [
        'POST',
        '/api/secret/send',
        { conversationId: 'nope', deviceId: device, epoch: 1, ciphertext: blob(), clientMessageId: cid() },
      ],
    ];
    for (const [method, path, body] of cases) {
      const res = await api.call(method, path, { token, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    expect((await api.post('/api/secret/devices', { keyPackages: [blob()] })).status).toBe(401);
  });
});
