// Blocking over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: a block stops the direct chat both
// ways and calls, hides the blocker from EBLID search and friend requests and their presence from the blocked
// person, shows the blocker their own block, and ends with «Разблокировать».
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, ack, befriend, closeAll, connect, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let direct: string;
let group: string;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, vera] = await Promise.all(['anna', 'boris', 'vera'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
  await befriend(api, anna, vera);
  direct = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body.conversation
    .id;
  group = (
    await api.post(
      '/api/conversations',
      { participantIds: [boris.user.id, vera.user.id], title: 'Все', isGroup: true },
      anna.accessToken,
    )
  ).body.conversation.id;
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

const send = (u: TestUser, conversationId: string, content: string) =>
  api.post('/api/conversations/send', { conversationId, type: 'TEXT', content }, u.accessToken);
const entryOf = async (u: TestUser, id: string) =>
  (
    (await api.get('/api/conversations', u.accessToken)).body.conversations as {
      conversation: { id: string; participants: { user: { id: string; status: string; lastSeenAt: string | null } }[] };
      blockedByMe?: boolean;
    }[]
  ).find((e) => e.conversation.id === id);

describe('blocking', () => {
  it('stops the direct chat both ways and calls, while the group goes on', async () => {
    const annaSocket = await connect(srv.url, anna.accessToken);
    const borisSocket = await connect(srv.url, boris.accessToken);
    expect((await api.post('/api/users/block', { userId: boris.user.id }, anna.accessToken)).status).toBe(200);

    const mine = await send(anna, direct, 'привет');
    expect(mine.status).toBe(403);
    expect(mine.body.message).toBe('Вы заблокировали этого пользователя');
    const theirs = await send(boris, direct, 'привет');
    expect(theirs.status).toBe(403);
    expect(theirs.body.message).toBe('Пользователь ограничил круг тех, кто может ему писать');
    expect((await send(boris, group, 'в группе можно')).status).toBe(200);

    const call = await ack<{ ok: boolean; message?: string }>(borisSocket, 'call:invite', {
      conversationId: direct,
      video: false,
    });
    expect(call).toMatchObject({ ok: false, message: 'Позвонить этому пользователю нельзя' });

    // Анна is online, but not to Борис; Анна's own chat says she blocked him.
    expect(annaSocket.connected).toBe(true);
    const seenByBoris = (await entryOf(boris, direct))?.conversation.participants.find(
      (p) => p.user.id === anna.user.id,
    );
    expect(seenByBoris?.user).toMatchObject({ status: 'OFFLINE', lastSeenAt: null });
    const seenByVera = (await entryOf(vera, group))?.conversation.participants.find((p) => p.user.id === anna.user.id);
    expect(seenByVera?.user.status).toBe('ONLINE');
    expect((await entryOf(anna, direct))?.blockedByMe).toBe(true);
    expect((await entryOf(boris, direct))?.blockedByMe).toBeUndefined();

    const listed = await api.get('/api/users/blocked', anna.accessToken);
    expect(listed.body.users.map((u: { id: string }) => u.id)).toEqual([boris.user.id]);

    expect((await api.post('/api/users/unblock', { userId: boris.user.id }, anna.accessToken)).status).toBe(200);
    expect((await send(boris, direct, 'снова можно')).status).toBe(200);
    expect((await send(anna, direct, 'да')).status).toBe(200);
    expect((await entryOf(anna, direct))?.blockedByMe).toBeUndefined();
    expect((await api.get('/api/users/blocked', anna.accessToken)).body.users).toEqual([]);
  });

  it('hides the blocker from EBLID search and answers a friend request to them as for an unknown user', async () => {
    const gleb = await api.user('gleb');
    await api.post('/api/users/block', { userId: gleb.user.id }, vera.accessToken);
    const search = await api.get(`/api/contacts/search?code=${vera.user.eblid}`, gleb.accessToken);
    expect(search.status).toBe(200);
    expect(search.body.results).toEqual([]);
    const add = await api.post('/api/contacts/add', { identifier: vera.user.eblid }, gleb.accessToken);
    expect(add.status).toBe(404);
    expect(add.body.message).toBe('Пользователь не найден');
    // The blocker still finds the one she blocked.
    const back = await api.get(`/api/contacts/search?code=${gleb.user.eblid}`, vera.accessToken);
    expect(back.body.results).toHaveLength(1);
  });

  it('refuses blocking oneself, unknown users and unknown fields, and blocking twice is harmless', async () => {
    const self = await api.post('/api/users/block', { userId: anna.user.id }, anna.accessToken);
    expect(self.status).toBe(400);
    expect(self.body.message).toBe('Нельзя заблокировать самого себя');
    expect(
      (await api.post('/api/users/block', { userId: '00000000-0000-4000-8000-000000000000' }, anna.accessToken)).status,
    ).toBe(404);
    expect((await api.post('/api/users/block', { userId: vera.user.id, x: 1 }, anna.accessToken)).status).toBe(400);
    expect((await api.post('/api/users/block', { userId: vera.user.id }, anna.accessToken)).status).toBe(200);
    expect((await api.post('/api/users/block', { userId: vera.user.id }, anna.accessToken)).status).toBe(200);
    expect((await api.get('/api/users/blocked', anna.accessToken)).body.users).toHaveLength(1);
    await api.post('/api/users/unblock', { userId: vera.user.id }, anna.accessToken);
    expect((await api.post('/api/users/block', { userId: vera.user.id })).status).toBe(401);
  });
});
