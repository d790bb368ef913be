// «Пометить как непрочитанное» over the real server (SQLite, or PostgreSQL with TEST_PG_URL): the mark is one
// person's (PATCH /api/conversations/:id/settings { markedUnread }), every tab of theirs hears it, the list carries it,
// opening the chat (POST /api/messages/mark-conversation-read) takes it off everywhere; counts stay as they were.
// With Redis, the same across two server processes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { type Api, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let direct: string;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, vera] = await Promise.all([api.user('anna'), api.user('boris'), api.user('vera')]);
  await befriend(api, anna, boris);
  direct = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body.conversation
    .id;
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

type Entry = { conversation: { id: string }; unreadCount: number; settings?: { markedUnread?: boolean } };
const mark = (a: Api, u: TestUser, id: string, on: boolean) =>
  a.patch(`/api/conversations/${id}/settings`, { markedUnread: on }, u.accessToken);
const entryOf = async (a: Api, u: TestUser, id: string) =>
  ((await a.get('/api/conversations', u.accessToken)).body.conversations as Entry[]).find(
    (e) => e.conversation.id === id,
  );
const open = (a: Api, u: TestUser, id: string) =>
  a.post('/api/messages/mark-conversation-read', { conversationId: id }, u.accessToken);

describe('marked unread', () => {
  it('marks for the person alone, tells every tab, and the list carries it with the count unchanged', async () => {
    await api.post(
      '/api/conversations/send',
      { conversationId: direct, type: 'TEXT', content: 'привет' },
      anna.accessToken,
    );
    expect((await open(api, boris, direct)).status).toBe(200);
    const [tab1, tab2] = await Promise.all([connect(srv.url, boris.accessToken), connect(srv.url, boris.accessToken)]);
    const annaSocket = await connect(srv.url, anna.accessToken);
    const annaTab = recorder(annaSocket);
    const told = [next(tab1, 'conversation:settings'), next(tab2, 'conversation:settings')];
    const res = await mark(api, boris, direct, true);
    expect(res.status).toBe(200);
    expect(res.body.settings.markedUnread).toBe(true);
    for (const t of await Promise.all(told))
      expect(t).toMatchObject({ conversationId: direct, settings: { markedUnread: true } });
    const entry = await entryOf(api, boris, direct);
    expect(entry?.settings?.markedUnread).toBe(true);
    expect(entry?.unreadCount).toBe(0);
    // Only Boris's: Anna's entry and sockets know nothing of it.
    expect((await entryOf(api, anna, direct))?.settings?.markedUnread).toBeUndefined();
    await roundTrip(annaSocket);
    expect(annaTab.events()).not.toContain('conversation:settings');
  });

  it('opening the chat takes the mark off on every tab; opening an unmarked chat tells nobody', async () => {
    await mark(api, boris, direct, true);
    const socket = await connect(srv.url, boris.accessToken);
    const tab = recorder(socket);
    const cleared = next(socket, 'conversation:settings');
    expect((await open(api, boris, direct)).status).toBe(200);
    expect((await cleared).settings.markedUnread).toBeUndefined();
    expect((await entryOf(api, boris, direct))?.settings?.markedUnread).toBeUndefined();
    await roundTrip(socket);
    const before = tab.events().length;
    expect((await open(api, boris, direct)).status).toBe(200);
    await roundTrip(socket);
    expect(tab.events().slice(before)).not.toContain('conversation:settings');
  });

  it('«Пометить как прочитанное» takes it off; other settings stay', async () => {
    await api.patch(`/api/conversations/${direct}/settings`, { pinned: true }, boris.accessToken);
    await mark(api, boris, direct, true);
    const res = await mark(api, boris, direct, false);
    expect(res.body.settings).toMatchObject({ pinned: true });
    expect(res.body.settings.markedUnread).toBeUndefined();
    expect((await entryOf(api, boris, direct))?.settings).toMatchObject({ pinned: true });
    await api.patch(`/api/conversations/${direct}/settings`, { pinned: false }, boris.accessToken);
  });

  it('refuses a non-member, a bad id and a bad value, in Russian, storing nothing', async () => {
    const notMember = await mark(api, vera, direct, true);
    expect(notMember.status).toBe(404);
    expect(notMember.body.message).toMatch(/[а-я]/i);
    expect((await open(api, vera, direct)).status).toBe(404);
    expect((await mark(api, boris, 'нет-такого', true)).status).toBe(400);
    expect((await mark(api, boris, '00000000-0000-4000-8000-000000000000', true)).status).toBe(404);
    const bad = await api.patch(`/api/conversations/${direct}/settings`, { markedUnread: 'да' }, boris.accessToken);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/[а-я]/i);
    expect((await entryOf(api, boris, direct))?.settings?.markedUnread).toBeUndefined();
    expect((await api.patch(`/api/conversations/${direct}/settings`, { markedUnread: true }, undefined)).status).toBe(
      401,
    );
  });
});

const available = await redisAvailable();

describe.skipIf(!available)('marked unread across two server processes', () => {
  let one: TestServer;
  let two: TestServer;
  beforeAll(async () => {
    one = await startTestServer({ redisUrl });
    two = await startTestServer({ redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl });
  });
  afterAll(async () => {
    closeAll();
    await two?.close();
    await one?.close();
  });

  it('a mark made through one server reaches the tab on the other, and opening there takes it off here', async () => {
    const api1 = client(one.url);
    const api2 = client(two.url);
    const [gleb, dina] = await Promise.all([api1.user('gleb'), api1.user('dina')]);
    await befriend(api1, gleb, dina);
    const id = (await api1.post('/api/conversations/with', { userId: dina.user.id }, gleb.accessToken)).body
      .conversation.id as string;
    // Both servers have the list cached before the change.
    expect((await entryOf(api2, dina, id))?.settings?.markedUnread).toBeUndefined();
    const [onOne, onTwo] = await Promise.all([connect(one.url, dina.accessToken), connect(two.url, dina.accessToken)]);
    const heard = next(onTwo, 'conversation:settings');
    expect((await mark(api1, dina, id, true)).status).toBe(200);
    expect((await heard).settings.markedUnread).toBe(true);
    await expect.poll(async () => (await entryOf(api2, dina, id))?.settings?.markedUnread).toBe(true);

    const cleared = next(onOne, 'conversation:settings');
    expect((await open(api2, dina, id)).status).toBe(200);
    expect((await cleared).settings.markedUnread).toBeUndefined();
    await expect.poll(async () => (await entryOf(api1, dina, id))?.settings?.markedUnread).toBeUndefined();
  });
});
