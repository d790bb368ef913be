// A group's life over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: roles, adding friends who see
// the history from their joining on, removing and leaving with access ending at once (history, sending, search,
// socket room), ownership passing on, renaming, SYSTEM entries that order the list but are not unread, and
// concurrent removals that end in one state with one entry.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
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
  for (const other of [boris, vera, gleb]) await befriend(api, anna, other);
  await befriend(api, boris, vera);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

type Participant = { user: { id: string }; role: string };
type Msg = {
  id: string;
  type: string;
  content: string;
  senderId: string;
  system?: { kind: string; targets: { id: string; name: string }[]; title: string | null; actor: { id: string } };
};

async function group(owner: TestUser, members: TestUser[], title = 'Дача'): Promise<string> {
  const res = await api.post(
    '/api/conversations',
    { participantIds: members.map((m) => m.user.id), title, isGroup: true },
    owner.accessToken,
  );
  expect(res.status).toBe(200);
  return res.body.conversation.id;
}

const send = (u: TestUser, conversationId: string, content: string) =>
  api.post('/api/conversations/send', { conversationId, type: 'TEXT', content }, u.accessToken);

async function history(u: TestUser, conversationId: string) {
  const res = await api.get(`/api/conversations/${conversationId}/messages?limit=100`, u.accessToken);
  return res as { status: number; body: { messages: Msg[] } };
}

async function entryOf(u: TestUser, conversationId: string) {
  const res = await api.get('/api/conversations', u.accessToken);
  return (
    res.body.conversations as {
      conversation: { id: string; title: string; participants: Participant[]; messages: Msg[] };
      unreadCount: number;
    }[]
  ).find((e) => e.conversation.id === conversationId);
}

const roles = (participants: Participant[]) => Object.fromEntries(participants.map((p) => [p.user.id, p.role]));

describe('roles and membership', () => {
  it('the creator owns the group and the others are members; a direct chat has no owner', async () => {
    const id = await group(anna, [boris, vera]);
    // The group opens with «Анна создал(а) группу», which is no unread news.
    const created = await entryOf(boris, id);
    expect(created?.conversation.messages[0]?.system).toMatchObject({ kind: 'created', actor: { id: anna.user.id } });
    expect(created?.unreadCount).toBe(0);
    const entry = await entryOf(boris, id);
    expect(roles(entry?.conversation.participants ?? [])).toEqual({
      [anna.user.id]: 'OWNER',
      [boris.user.id]: 'MEMBER',
      [vera.user.id]: 'MEMBER',
    });
    const direct = await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken);
    expect(direct.body.conversation.participants.map((p: Participant) => p.role)).toEqual(['MEMBER', 'MEMBER']);
  });

  it('an added friend sees the history from their joining on («Скрыта»), with the entry that added them, live', async () => {
    const id = await group(anna, [boris]);
    // Hidden from newcomers: group-history.test.ts covers «Видна», the default of a new group.
    await api.post('/api/conversations/history', { conversationId: id, visible: false }, anna.accessToken);
    await send(anna, id, 'до Глеба');
    const glebSocket = await connect(srv.url, gleb.accessToken);
    const borisSocket = await connect(srv.url, boris.accessToken);
    expect(await ack(borisSocket, 'conversation:join', id)).toEqual({ ok: true });
    const glebHears = next(
      glebSocket,
      'conversations:new',
      (p: { conversation: { id: string } }) => p.conversation.id === id,
    );
    const borisUpdated = next(borisSocket, 'conversation:updated');
    const borisEntry = next(borisSocket, 'message:new', (p: { message: Msg }) => p.message.type === 'SYSTEM');

    const res = await api.post(
      '/api/conversations/members/add',
      { conversationId: id, userIds: [gleb.user.id] },
      anna.accessToken,
    );
    expect(res.status).toBe(200);
    expect(roles(res.body.conversation.participants)[gleb.user.id]).toBe('MEMBER');
    await glebHears;
    expect((await borisUpdated).conversation.participants).toHaveLength(3);
    const live = (await borisEntry).message as Msg;
    expect(live.system).toMatchObject({ kind: 'added', actor: { id: anna.user.id }, targets: [{ id: gleb.user.id }] });
    expect(live.system?.targets[0].name).toBe(gleb.user.displayName);

    const seen = (await history(gleb, id)).body.messages;
    expect(seen.map((m) => m.type)).toEqual(['SYSTEM']);
    await send(boris, id, 'привет, Глеб');
    expect((await history(gleb, id)).body.messages.map((m) => m.content)).toEqual(['', 'привет, Глеб']);
    // Boris still sees everything.
    expect((await history(boris, id)).body.messages.map((m) => m.content)).toContain('до Глеба');
    // Adding again changes nothing and writes nothing.
    await api.post('/api/conversations/members/add', { conversationId: id, userIds: [gleb.user.id] }, anna.accessToken);
    expect(
      (await history(anna, id)).body.messages.filter((m) => m.type === 'SYSTEM').map((m) => m.system?.kind),
    ).toEqual(['created', 'historyHidden', 'added']);
  });

  it('refuses adding by a member (403), by an outsider (404), non-friends (403), unknown users (404), in a direct chat (400)', async () => {
    const id = await group(anna, [boris]);
    const add = (u: TestUser, userIds: string[], conversationId = id) =>
      api.post('/api/conversations/members/add', { conversationId, userIds }, u.accessToken);
    expect((await add(boris, [vera.user.id])).status).toBe(403);
    expect((await add(vera, [gleb.user.id])).status).toBe(404);
    // Gleb is Anna's friend but not Boris's: an admin Boris may not add him.
    await api.post(
      '/api/conversations/members/role',
      { conversationId: id, userId: boris.user.id, role: 'ADMIN' },
      anna.accessToken,
    );
    const notFriend = await add(boris, [gleb.user.id]);
    expect(notFriend.status).toBe(403);
    expect(notFriend.body.message).toBe('В беседу можно добавить только друзей');
    expect((await add(anna, ['00000000-0000-4000-8000-000000000000'])).status).toBe(404);
    const direct = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body
      .conversation.id;
    const inDirect = await add(anna, [vera.user.id], direct);
    expect(inDirect.status).toBe(400);
    expect(inDirect.body.message).toBe('Это действие доступно только в групповом чате');
    const extra = await api.post(
      '/api/conversations/members/add',
      { conversationId: id, userIds: [vera.user.id], x: 1 },
      anna.accessToken,
    );
    expect(extra.status).toBe(400);
    expect((await entryOf(anna, id))?.conversation.participants).toHaveLength(2);
  });

  it('the owner makes admins and hands ownership over; an admin renames; only the owner changes roles', async () => {
    const id = await group(anna, [boris, vera]);
    const role = (u: TestUser, userId: string, r: string) =>
      api.post('/api/conversations/members/role', { conversationId: id, userId, role: r }, u.accessToken);
    expect((await role(anna, boris.user.id, 'ADMIN')).status).toBe(200);
    const byAdmin = await role(boris, vera.user.id, 'ADMIN');
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.message).toBe('Роли меняет только владелец группы');
    expect((await role(anna, anna.user.id, 'MEMBER')).status).toBe(400);

    const renamed = await api.patch(`/api/conversations/${id}`, { title: '  Дача 2026 ' }, boris.accessToken);
    expect(renamed.status).toBe(200);
    expect(renamed.body.conversation.title).toBe('Дача 2026');
    const last = (await history(vera, id)).body.messages.at(-1);
    expect(last?.system).toMatchObject({ kind: 'renamed', title: 'Дача 2026', actor: { id: boris.user.id } });
    expect((await api.patch(`/api/conversations/${id}`, { title: '   ' }, boris.accessToken)).status).toBe(400);
    expect((await api.patch(`/api/conversations/${id}`, { title: 'я'.repeat(101) }, boris.accessToken)).status).toBe(
      400,
    );
    expect((await api.patch(`/api/conversations/${id}`, { title: 'x', extra: 1 }, boris.accessToken)).status).toBe(400);
    expect((await api.patch(`/api/conversations/${id}`, { title: 'Моя' }, vera.accessToken)).status).toBe(403);
    const picture = await api.patch(`/api/conversations/${id}`, { avatarUrl: 'emoji:🏡' }, boris.accessToken);
    expect(picture.body.conversation.avatarUrl).toBe('emoji:🏡');
    expect((await history(vera, id)).body.messages.at(-1)?.system?.kind).toBe('photo');

    expect((await role(anna, vera.user.id, 'OWNER')).status).toBe(200);
    const after = roles((await entryOf(anna, id))?.conversation.participants ?? []);
    expect(after).toEqual({ [anna.user.id]: 'ADMIN', [boris.user.id]: 'ADMIN', [vera.user.id]: 'OWNER' });
    expect((await role(anna, boris.user.id, 'MEMBER')).status).toBe(403);
  });

  it('an admin cannot remove the owner or another admin; the owner cannot be removed', async () => {
    const id = await group(anna, [boris, vera]);
    await api.post(
      '/api/conversations/members/role',
      { conversationId: id, userId: boris.user.id, role: 'ADMIN' },
      anna.accessToken,
    );
    await api.post(
      '/api/conversations/members/role',
      { conversationId: id, userId: vera.user.id, role: 'ADMIN' },
      anna.accessToken,
    );
    const remove = (u: TestUser, userId: string) =>
      api.post('/api/conversations/members/remove', { conversationId: id, userId }, u.accessToken);
    expect((await remove(boris, anna.user.id)).status).toBe(403);
    expect((await remove(boris, vera.user.id)).status).toBe(403);
    expect((await entryOf(anna, id))?.conversation.participants).toHaveLength(3);
    expect((await remove(anna, vera.user.id)).status).toBe(200);
  });
});

describe('access ends at once', () => {
  it('a removed member loses history, sending, search, the room and the call before the answer', async () => {
    const calls: { room: string; identities: readonly string[] }[] = [];
    srv.server.app.mediaRooms.attach({
      removeParticipants: (room, identities) => {
        calls.push({ room, identities });
        return identities.length;
      },
    });
    const id = await group(anna, [boris, vera]);
    await send(anna, id, 'морковка на грядке');
    await expect
      .poll(async () => (await api.get('/api/search?q=морковка', boris.accessToken)).body.results?.length ?? 0, {
        timeout: 5000,
      })
      .toBeGreaterThan(0);
    const borisSocket = await connect(srv.url, boris.accessToken);
    const borisTab2 = await connect(srv.url, boris.accessToken);
    expect(await ack(borisSocket, 'conversation:join', id)).toEqual({ ok: true });
    const removedHeard = next(borisTab2, 'conversation:removed');
    const seen = recorder(borisSocket);

    const res = await api.post(
      '/api/conversations/members/remove',
      { conversationId: id, userId: boris.user.id },
      anna.accessToken,
    );
    expect(res.status).toBe(200);
    expect((await removedHeard).conversationId).toBe(id);
    await send(anna, id, 'после Бориса');
    await roundTrip(borisSocket);
    expect(seen.events()).not.toContain('message:new');
    expect(seen.events()).not.toContain('message:notify');

    expect((await history(boris, id)).status).toBe(404);
    expect((await send(boris, id, 'я ещё здесь')).status).toBe(404);
    // The media server was told to disconnect him from the group's call.
    expect(calls).toContainEqual({ room: `conv-${id}`, identities: [boris.user.id] });
    expect((await api.get('/api/search?q=морковка', boris.accessToken)).body.results).toEqual([]);
    expect(await entryOf(boris, id)).toBeUndefined();
    expect((await ack(borisSocket, 'conversation:join', id)).ok).toBe(false);
    const entry = (await history(vera, id)).body.messages.find((m) => m.system?.kind === 'removed');
    expect(entry?.system).toMatchObject({ kind: 'removed', targets: [{ id: boris.user.id }] });
  });

  it('the owner who leaves passes ownership to the longest-serving admin; the last one to leave ends the group', async () => {
    const id = await group(anna, [boris, vera]);
    await api.post(
      '/api/conversations/members/role',
      { conversationId: id, userId: vera.user.id, role: 'ADMIN' },
      anna.accessToken,
    );
    const left = await api.post('/api/conversations/leave', { conversationId: id }, anna.accessToken);
    expect(left.status).toBe(200);
    expect(left.body.conversation).toBeNull();
    expect(roles((await entryOf(boris, id))?.conversation.participants ?? [])).toEqual({
      [boris.user.id]: 'MEMBER',
      [vera.user.id]: 'OWNER',
    });
    expect((await history(boris, id)).body.messages.at(-1)?.system?.kind).toBe('left');
    // Leaving twice is harmless.
    expect((await api.post('/api/conversations/leave', { conversationId: id }, anna.accessToken)).status).toBe(404);
    await api.post('/api/conversations/leave', { conversationId: id }, vera.accessToken);
    expect(roles((await entryOf(boris, id))?.conversation.participants ?? [])).toEqual({ [boris.user.id]: 'OWNER' });
    await api.post('/api/conversations/leave', { conversationId: id }, boris.accessToken);
    expect((await history(boris, id)).status).toBe(404);
    expect(
      (
        await api.post(
          '/api/conversations/members/add',
          { conversationId: id, userIds: [vera.user.id] },
          boris.accessToken,
        )
      ).status,
    ).toBe(404);
  });

  it('two admins removing the same member at once, or a member leaving while removed, leave one state and one entry', async () => {
    for (const race of ['two admins', 'leave and remove'] as const) {
      const id = await group(anna, [boris, vera]);
      await api.post(
        '/api/conversations/members/role',
        { conversationId: id, userId: boris.user.id, role: 'ADMIN' },
        anna.accessToken,
      );
      const remove = (u: TestUser) =>
        api.post('/api/conversations/members/remove', { conversationId: id, userId: vera.user.id }, u.accessToken);
      const results = await Promise.all(
        race === 'two admins'
          ? [remove(anna), remove(boris), remove(anna)]
          : [
              remove(anna),
              api.post('/api/conversations/leave', { conversationId: id }, vera.accessToken),
              remove(boris),
            ],
      );
      for (const r of results) expect([200, 404]).toContain(r.status);
      const entries = (await history(anna, id)).body.messages.filter(
        (m) => m.type === 'SYSTEM' && m.system?.kind !== 'created',
      );
      expect(entries, race).toHaveLength(1);
      const left = Object.keys(roles((await entryOf(anna, id))?.conversation.participants ?? []));
      expect(left.sort()).toEqual([anna.user.id, boris.user.id].sort());
    }
  });
});

describe('system entries', () => {
  it('order the list and show as its latest message, but are not unread', async () => {
    const id = await group(anna, [boris, vera]);
    await api.post('/api/conversations/members/remove', { conversationId: id, userId: vera.user.id }, anna.accessToken);
    const entry = await entryOf(boris, id);
    expect(entry?.conversation.messages[0]?.type).toBe('SYSTEM');
    expect(entry?.unreadCount).toBe(0);
    await send(anna, id, 'одно');
    expect((await entryOf(boris, id))?.unreadCount).toBe(1);
  });

  it('cannot be posted by a client', async () => {
    const id = await group(anna, [boris]);
    const res = await api.post(
      '/api/conversations/send',
      { conversationId: id, type: 'SYSTEM', content: 'x' },
      anna.accessToken,
    );
    expect(res.status).toBe(400);
  });
});
