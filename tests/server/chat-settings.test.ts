// One person's chat settings over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: «Без звука» (no Web
// Push while muted, every tab told), «Закрепить» (at most 5), «В архив» (back on a new message unless muted),
// «Очистить историю» (for oneself only) and «Удалить чат» (a direct chat until a new message; a group is left).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { startPushService, subscriberKeys, type PushService } from './push-service';
import { type Api, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let ps: PushService;
let anna: TestUser;
let boris: TestUser;
let direct: string;

beforeAll(async () => {
  srv = await startTestServer({ pushAllowLoopback: true });
  api = client(srv.url);
  ps = await startPushService();
  [anna, boris] = await Promise.all([api.user('anna'), api.user('boris')]);
  await befriend(api, anna, boris);
  direct = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body.conversation
    .id;
});
afterAll(async () => {
  await srv?.close();
  await ps?.close();
});
afterEach(() => closeAll());

type Settings = { mutedUntil: string | null; pinned: boolean; pinnedAt: string | null; archived: boolean };
const send = (u: TestUser, conversationId: string, content: string) =>
  api.post('/api/conversations/send', { conversationId, type: 'TEXT', content }, u.accessToken);
const settings = (u: TestUser, id: string, body: unknown) =>
  api.patch(`/api/conversations/${id}/settings`, body, u.accessToken);
/** The list leaves out settings at their defaults (ConversationEntry: absent means not muted, pinned or archived). */
const DEFAULTS: Settings = { mutedUntil: null, pinned: false, pinnedAt: null, archived: false };
const entries = async (u: TestUser) =>
  (
    (await api.get('/api/conversations', u.accessToken)).body.conversations as {
      conversation: { id: string };
      unreadCount: number;
      settings?: Settings;
    }[]
  ).map((e) => ({ ...e, settings: e.settings ?? DEFAULTS }));
const entryOf = async (u: TestUser, id: string) => (await entries(u)).find((e) => e.conversation.id === id);
const history = async (u: TestUser, id: string) =>
  ((await api.get(`/api/conversations/${id}/messages`, u.accessToken)).body.messages as { content: string }[]).map(
    (m) => m.content,
  );

describe('chat settings', () => {
  it('mutes: the setting reaches every tab, and no push goes out while muted', async () => {
    const sub = subscriberKeys();
    const path = '/push/muted';
    expect(
      (
        await api.post(
          '/api/push/subscribe',
          { endpoint: ps.url + path, keys: sub.keys, showText: true },
          boris.accessToken,
        )
      ).status,
    ).toBe(200);
    const tab = await connect(srv.url, boris.accessToken);
    const told = next(tab, 'conversation:settings');
    const res = await settings(boris, direct, { mutedUntil: 'forever' });
    expect(res.status).toBe(200);
    expect(res.body.settings).toMatchObject({ mutedUntil: 'forever', pinned: false, archived: false });
    expect((await told).settings.mutedUntil).toBe('forever');
    tab.close();
    expect((await entryOf(boris, direct))?.settings.mutedUntil).toBe('forever');

    await send(anna, direct, 'тихо');
    await srv.server.ctx.push.settled();
    expect(ps.requests.filter((r) => r.path === path)).toEqual([]);

    // «Включить звук»: pushes again.
    await settings(boris, direct, { mutedUntil: null });
    await send(anna, direct, 'громко');
    await ps.nth(path, 1);
    // A time past is not muted.
    const past = await settings(boris, direct, { mutedUntil: new Date(Date.now() - 60_000).toISOString() });
    expect(past.body.settings.mutedUntil).toBeNull();
    const hour = new Date(Date.now() + 3_600_000).toISOString();
    expect((await settings(boris, direct, { mutedUntil: hour })).body.settings.mutedUntil).toBe(hour);
    await settings(boris, direct, { mutedUntil: null });

    // A mention is heard through «Без звука», a plain message is not (a chat of its own: pushes coalesce per chat).
    const loud = (
      await api.post(
        '/api/conversations',
        { participantIds: [boris.user.id], title: 'Шумная', isGroup: true },
        anna.accessToken,
      )
    ).body.conversation.id;
    await settings(boris, loud, { mutedUntil: 'forever' });
    await send(anna, loud, 'без упоминания');
    await srv.server.ctx.push.settled();
    expect(ps.requests.filter((r) => r.path === path)).toHaveLength(1);
    await api.post(
      '/api/conversations/send',
      { conversationId: loud, type: 'TEXT', content: '@Борис срочно', mentions: [boris.user.id] },
      anna.accessToken,
    );
    await ps.nth(path, 2);
    await api.post('/api/push/unsubscribe', { endpoint: ps.url + path }, boris.accessToken);
  });

  it('pins up to five chats, in pin order, and refuses a sixth with 409', async () => {
    const friends = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => api.user(`f${i}`)));
    const ids: string[] = [];
    for (const f of friends) {
      await befriend(api, anna, f);
      ids.push(
        (await api.post('/api/conversations/with', { userId: f.user.id }, anna.accessToken)).body.conversation.id,
      );
    }
    for (const id of ids.slice(0, 5)) expect((await settings(anna, id, { pinned: true })).status).toBe(200);
    const sixth = await settings(anna, ids[5], { pinned: true });
    expect(sixth.status).toBe(409);
    expect(sixth.body.message).toBe('Можно закрепить не больше 5 чатов');
    const pinned = (await entries(anna)).filter((e) => e.settings.pinned);
    expect(pinned).toHaveLength(5);
    // Pinning again keeps the first time; unpinning frees a place.
    const first = (await entryOf(anna, ids[0]))?.settings.pinnedAt;
    await settings(anna, ids[0], { pinned: true });
    expect((await entryOf(anna, ids[0]))?.settings.pinnedAt).toBe(first);
    await settings(anna, ids[0], { pinned: false });
    expect((await settings(anna, ids[5], { pinned: true })).status).toBe(200);
    for (const id of ids) await settings(anna, id, { pinned: false });
  });

  it('archives until a new message, unless muted', async () => {
    await settings(anna, direct, { archived: true });
    expect((await entryOf(anna, direct))?.settings.archived).toBe(true);
    await send(boris, direct, 'вернись');
    expect((await entryOf(anna, direct))?.settings.archived).toBe(false);
    await settings(anna, direct, { archived: true, mutedUntil: 'forever' });
    await send(boris, direct, 'всё равно в архиве');
    expect((await entryOf(anna, direct))?.settings.archived).toBe(true);
    await settings(anna, direct, { archived: false, mutedUntil: null });
  });

  it('clears the history for oneself only, and hides a direct chat until a new message', async () => {
    await send(anna, direct, 'до очистки');
    expect((await api.post('/api/conversations/clear', { conversationId: direct }, anna.accessToken)).status).toBe(200);
    expect(await history(anna, direct)).toEqual([]);
    expect(await history(boris, direct)).toContain('до очистки');
    expect((await entryOf(anna, direct))?.unreadCount).toBe(0);
    await send(boris, direct, 'после очистки');
    expect(await history(anna, direct)).toEqual(['после очистки']);

    const tab = await connect(srv.url, anna.accessToken);
    const removed = next(tab, 'conversation:removed');
    expect((await api.post('/api/conversations/hide', { conversationId: direct }, anna.accessToken)).status).toBe(200);
    expect((await removed).conversationId).toBe(direct);
    expect(await entryOf(anna, direct)).toBeUndefined();
    expect(await entryOf(boris, direct)).toBeDefined();
    await send(boris, direct, 'снова пишу');
    expect(await entryOf(anna, direct)).toBeDefined();
    expect(await history(anna, direct)).toEqual(['снова пишу']);
  });

  it('«Удалить чат» of a group leaves it', async () => {
    const g = (
      await api.post(
        '/api/conversations',
        { participantIds: [boris.user.id], title: 'Г', isGroup: true },
        anna.accessToken,
      )
    ).body.conversation.id;
    expect((await api.post('/api/conversations/hide', { conversationId: g }, boris.accessToken)).status).toBe(200);
    expect(await entryOf(boris, g)).toBeUndefined();
    expect((await api.get(`/api/conversations/${g}/messages`, boris.accessToken)).status).toBe(404);
  });

  it('refuses outsiders (404), nothing to change, bad times and unknown fields (400)', async () => {
    const stranger = await api.user('stranger');
    expect((await settings(stranger, direct, { pinned: true })).status).toBe(404);
    expect((await api.post('/api/conversations/clear', { conversationId: direct }, stranger.accessToken)).status).toBe(
      404,
    );
    expect((await api.post('/api/conversations/hide', { conversationId: direct }, stranger.accessToken)).status).toBe(
      404,
    );
    expect((await settings(anna, direct, {})).status).toBe(400);
    expect((await settings(anna, direct, { mutedUntil: 'завтра' })).status).toBe(400);
    expect((await settings(anna, direct, { pinned: 'да' })).status).toBe(400);
    expect((await settings(anna, direct, { muted: true })).status).toBe(400);
  });
});
