// «История для новых участников» over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: a new group
// shows its history to newcomers («Видна»), who read, search and export all of it but start unread at their joining
// (and are left out of the earlier messages' receipts); a group set to «Скрыта» shows them only what comes after;
// only the owner and admins switch it, with a SYSTEM entry and conversation:updated live; a removed member sees
// nothing new and, back again, the whole history; a member's own «Очистить историю» stays; secret chats have no such
// setting; groups that existed before keep «Скрыта»; with two processes behind Redis (when it answers), a switch on
// one reaches the other live and joins on both follow it.
import { Migrator } from 'kysely';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrations } from '../../server/db/migrations';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { secretChat } from './secret-helpers';
import { type Api, ack, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

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
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

type Msg = { id: string; type: string; content: string; system?: { kind: string; actor: { id: string } } | null };
type Entry = { conversation: { id: string; historyVisible?: boolean; secret?: boolean }; unreadCount: number };

async function group(owner: TestUser, members: TestUser[], title = 'Команда'): Promise<string> {
  const res = await api.post(
    '/api/conversations',
    { participantIds: members.map((m) => m.user.id), title, isGroup: true },
    owner.accessToken,
  );
  expect(res.status).toBe(200);
  return res.body.conversation.id;
}

const send = async (u: TestUser, conversationId: string, content: string) => {
  const res = await api.post('/api/conversations/send', { conversationId, type: 'TEXT', content }, u.accessToken);
  expect(res.status).toBe(200);
  return res.body.message.id as string;
};
const setHistory = (u: TestUser, conversationId: string, visible: boolean) =>
  api.post('/api/conversations/history', { conversationId, visible }, u.accessToken);
const add = (u: TestUser, conversationId: string, who: TestUser) =>
  api.post('/api/conversations/members/add', { conversationId, userIds: [who.user.id] }, u.accessToken);

async function texts(u: TestUser, conversationId: string): Promise<string[]> {
  const res = await api.get(`/api/conversations/${conversationId}/messages?limit=100`, u.accessToken);
  expect(res.status).toBe(200);
  return (res.body.messages as Msg[]).filter((m) => m.type === 'TEXT').map((m) => m.content);
}

async function entryOf(u: TestUser, conversationId: string): Promise<Entry | undefined> {
  const res = await api.get('/api/conversations', u.accessToken);
  return (res.body.conversations as Entry[]).find((e) => e.conversation.id === conversationId);
}

const found = async (u: TestUser, q: string, conversationId: string) =>
  ((await api.get(`/api/search?q=${encodeURIComponent(q)}&conversationId=${conversationId}`, u.accessToken)).body
    .results ?? []) as { message: { id: string } }[];

describe('«Видна»: newcomers read the whole history', () => {
  it('a new group shows its history; an added member reads and finds the earlier messages, nothing unread', async () => {
    const id = await group(anna, [boris]);
    expect((await entryOf(anna, id))?.conversation.historyVisible).toBe(true);
    const plan = await send(anna, id, 'план на квартал');
    await send(boris, id, 'бюджет утверждён');
    // A searcher who can read it finds it: the index has it.
    await expect.poll(async () => (await found(anna, 'бюджет', id)).length, { timeout: 5000 }).toBe(1);

    expect((await add(anna, id, vera)).status).toBe(200);
    expect(await texts(vera, id)).toEqual(['план на квартал', 'бюджет утверждён']);
    expect(await found(vera, 'бюджет', id)).toHaveLength(1);
    expect(await found(vera, 'квартал', id)).toHaveLength(1);
    // What was written before she came is not news to her; what comes after is.
    expect((await entryOf(vera, id))?.unreadCount).toBe(0);
    const welcome = await send(anna, id, 'добро пожаловать');
    expect((await entryOf(vera, id))?.unreadCount).toBe(1);
    // She was not there when the plan came: neither its receipts nor its «Информация» count her.
    const info = async (messageId: string) => (await api.get(`/api/messages/${messageId}/info`, anna.accessToken)).body;
    const receipts = async (messageId: string) =>
      (
        (await api.get(`/api/conversations/${id}/messages?limit=100`, anna.accessToken)).body.messages as {
          id: string;
          receipts: { userId: string }[];
        }[]
      )
        .find((m) => m.id === messageId)
        ?.receipts.map((r) => r.userId);
    expect(await receipts(plan)).toEqual([]);
    expect(await info(plan)).toEqual({ read: [], unread: [boris.user.id] });
    expect(await info(welcome)).toEqual({ read: [], unread: [boris.user.id, vera.user.id] });
  });

  it('someone joining by an invite link reads the whole history too', async () => {
    const id = await group(anna, [boris]);
    await send(anna, id, 'до ссылки');
    const code = (await api.post('/api/conversations/invites', { conversationId: id }, anna.accessToken)).body.invite
      .code as string;
    const stranger = await api.user('stranger');
    expect((await api.post(`/api/invites/${code}/join`, {}, stranger.accessToken)).status).toBe(200);
    expect(await texts(stranger, id)).toEqual(['до ссылки']);
    expect((await entryOf(stranger, id))?.unreadCount).toBe(0);
  });

  it('a removed member sees nothing new; added again, they read the whole history', async () => {
    const id = await group(anna, [boris, gleb]);
    await send(anna, id, 'первое');
    expect(
      (
        await api.post(
          '/api/conversations/members/remove',
          { conversationId: id, userId: gleb.user.id },
          anna.accessToken,
        )
      ).status,
    ).toBe(200);
    await send(anna, id, 'без Глеба');
    expect((await api.get(`/api/conversations/${id}/messages`, gleb.accessToken)).status).toBe(404);
    expect(await found(gleb, 'Глеба', id)).toEqual([]);
    expect(await entryOf(gleb, id)).toBeUndefined();

    expect((await add(anna, id, gleb)).status).toBe(200);
    expect(await texts(gleb, id)).toEqual(['первое', 'без Глеба']);
    expect((await entryOf(gleb, id))?.unreadCount).toBe(0);
  });

  it('a member’s own «Очистить историю» stays cleared whatever the group shows newcomers', async () => {
    const id = await group(anna, [boris]);
    await send(anna, id, 'старое');
    expect((await api.post('/api/conversations/clear', { conversationId: id }, boris.accessToken)).status).toBe(200);
    expect(await texts(boris, id)).toEqual([]);
    expect((await setHistory(anna, id, false)).status).toBe(200);
    expect((await setHistory(anna, id, true)).status).toBe(200);
    expect(await texts(boris, id)).toEqual([]);
    await send(anna, id, 'новое');
    expect(await texts(boris, id)).toEqual(['новое']);
  });
});

describe('«Скрыта»: newcomers read from their joining on', () => {
  it('an added member reads and finds nothing earlier', async () => {
    const id = await group(anna, [boris]);
    expect((await setHistory(anna, id, false)).status).toBe(200);
    await send(boris, id, 'секретный план');
    await expect.poll(async () => (await found(anna, 'секретный', id)).length, { timeout: 5000 }).toBe(1);
    expect((await add(anna, id, vera)).status).toBe(200);
    expect(await texts(vera, id)).toEqual([]);
    expect(await found(vera, 'секретный', id)).toEqual([]);
    expect((await entryOf(vera, id))?.unreadCount).toBe(0);
    expect((await entryOf(vera, id))?.conversation.historyVisible).toBe(false);
    // Opening it later does not reach back for her: the join point was taken when she came.
    expect((await setHistory(anna, id, true)).status).toBe(200);
    expect(await texts(vera, id)).toEqual([]);
  });
});

describe('«Экспорт данных»', () => {
  /** The texts of one conversation in `u`'s archive. */
  async function exported(u: TestUser, conversationId: string): Promise<string[]> {
    const started = await api.post('/api/export', undefined, u.accessToken);
    expect(started.status).toBe(202);
    const id = started.body.export.id as string;
    await vi.waitFor(
      async () => expect((await api.get(`/api/export/${id}`, u.accessToken)).body.export.status).toBe('ready'),
      { timeout: 15_000, interval: 20 },
    );
    const res = await fetch(`${srv.url}/api/export/${id}/download`, {
      headers: { authorization: `Bearer ${u.accessToken}` },
    });
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const { messages } = JSON.parse(strFromU8(files[`conversations/${conversationId}.json`] as Uint8Array));
    return (messages as { type: string; text: string }[]).filter((m) => m.type === 'TEXT').map((m) => m.text);
  }

  it('holds what the member reads: the whole history with «Видна», from the join with «Скрыта»', async () => {
    const [owner, open, closed] = await Promise.all(['exo', 'exv', 'exh'].map((n) => api.user(n)));
    for (const friend of [open, closed]) await befriend(api, owner, friend);
    const shown = await group(owner, [open], 'Видно');
    const hidden = await group(owner, [closed], 'Скрыто');
    expect((await setHistory(owner, hidden, false)).status).toBe(200);
    const late = await api.user('exl');
    await befriend(api, owner, late);
    await send(owner, shown, 'до новичка');
    await send(owner, hidden, 'до новичка');
    expect((await add(owner, shown, late)).status).toBe(200);
    expect((await add(owner, hidden, late)).status).toBe(200);
    await send(owner, hidden, 'после новичка');
    expect(await exported(late, shown)).toEqual(['до новичка']);
    expect(await exported(late, hidden)).toEqual(['после новичка']);
  });
});

describe('switching', () => {
  it('owner and admins switch it, with a SYSTEM entry and the group updated live; twice writes nothing', async () => {
    const id = await group(anna, [boris, vera]);
    const veraSocket = await connect(srv.url, vera.accessToken);
    expect(await ack(veraSocket, 'conversation:join', id)).toEqual({ ok: true });
    const updated = next(
      veraSocket,
      'conversation:updated',
      (p: { conversation: { id: string; historyVisible?: boolean } }) => p.conversation.id === id,
    );
    const entry = next(veraSocket, 'message:new', (p: { message: Msg }) => p.message.type === 'SYSTEM');
    const hidden = await setHistory(anna, id, false);
    expect(hidden.status).toBe(200);
    expect(hidden.body.conversation.historyVisible).toBe(false);
    expect((await updated).conversation.historyVisible).toBe(false);
    expect((await entry).message.system).toMatchObject({ kind: 'historyHidden', actor: { id: anna.user.id } });
    // The same choice again changes nothing and writes nothing.
    expect((await setHistory(anna, id, false)).status).toBe(200);

    const roled = await api.post(
      '/api/conversations/members/role',
      { conversationId: id, userId: boris.user.id, role: 'ADMIN' },
      anna.accessToken,
    );
    expect(roled.status).toBe(200);
    expect((await setHistory(boris, id, true)).body.conversation.historyVisible).toBe(true);
    const kinds = (
      (await api.get(`/api/conversations/${id}/messages`, vera.accessToken)).body.messages as Msg[]
    ).flatMap((m) => (m.system ? [m.system.kind] : []));
    expect(kinds).toEqual(['created', 'historyHidden', 'historyShown']);
    expect((await entryOf(vera, id))?.unreadCount).toBe(0);
  });

  it('refuses a member (403), an outsider (404), a direct chat (400), a secret chat (400) and bad input (400)', async () => {
    const id = await group(anna, [boris]);
    const member = await setHistory(boris, id, false);
    expect(member.status).toBe(403);
    expect(member.body.message).toBe('Это могут только владелец и администраторы группы');
    expect((await setHistory(gleb, id, false)).status).toBe(404);
    expect((await entryOf(anna, id))?.conversation.historyVisible).toBe(true);

    const direct = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body
      .conversation;
    expect(direct.historyVisible).toBeUndefined();
    const notGroup = await setHistory(anna, direct.id, true);
    expect(notGroup.status).toBe(400);
    expect(notGroup.body.message).toBe('Это действие доступно только в групповом чате');

    const secret = await secretChat(api, anna, [boris, vera], 'Тайна');
    expect((await entryOf(anna, secret))?.conversation).toMatchObject({ secret: true });
    expect((await entryOf(anna, secret))?.conversation.historyVisible).toBeUndefined();
    const refused = await setHistory(anna, secret, true);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('В секретных чатах новые участники видят только сообщения после вступления');

    const bad = await api.post('/api/conversations/history', { conversationId: id, visible: 'да' }, anna.accessToken);
    expect(bad.status).toBe(400);
  });
});

describe('migration 027', () => {
  it('groups made before it keep «Скрыта»; groups made after show their history', async () => {
    const before = await group(anna, [boris], 'Старая');
    await send(anna, before, 'старая переписка');
    const { db } = srv.server.ctx;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const names = Object.keys(migrations).sort();
    const previous = names[names.indexOf('027_group_history') - 1] as string;
    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const row = await db
      .selectFrom('conversations')
      .select('history_visible')
      .where('id', '=', before)
      .executeTakeFirstOrThrow();
    expect(Number(row.history_visible)).toBe(0);
    expect((await add(anna, before, vera)).status).toBe(200);
    expect(await texts(vera, before)).toEqual([]);

    const after = await group(anna, [boris], 'Новая');
    await send(anna, after, 'новая переписка');
    expect((await add(anna, after, vera)).status).toBe(200);
    expect(await texts(vera, after)).toEqual(['новая переписка']);
  });
});

const redis = await redisAvailable();

describe.skipIf(!redis)('two server processes behind Redis', () => {
  let one: TestServer;
  let two: TestServer;
  let api1: Api;
  let api2: Api;

  beforeAll(async () => {
    one = await startTestServer({ redisUrl });
    // One deployment, two processes: the same data directory and database.
    two = await startTestServer({ redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl });
    api1 = client(one.url);
    api2 = client(two.url);
  });
  afterAll(async () => {
    closeAll();
    await two?.close();
    await one?.close();
  });

  it('a switch made on one process reaches members on the other live, and joins on either follow it', async () => {
    const [owner, member, late, later] = await Promise.all(['own', 'mem', 'late', 'later'].map((n) => api1.user(n)));
    for (const friend of [member, late, later]) await befriend(api1, owner, friend);
    const id = (
      await api1.post(
        '/api/conversations',
        { participantIds: [member.user.id], title: 'Цех', isGroup: true },
        owner.accessToken,
      )
    ).body.conversation.id as string;
    await api1.post(
      '/api/conversations/send',
      { conversationId: id, type: 'TEXT', content: 'смена 1' },
      owner.accessToken,
    );

    const memberOnTwo = await connect(two.url, member.accessToken);
    expect(await ack(memberOnTwo, 'conversation:join', id)).toEqual({ ok: true });
    const updated = next(
      memberOnTwo,
      'conversation:updated',
      (p: { conversation: { id: string; historyVisible?: boolean } }) => p.conversation.id === id,
    );
    const entry = next(memberOnTwo, 'message:new', (p: { message: Msg }) => p.message.type === 'SYSTEM');
    expect(
      (await api1.post('/api/conversations/history', { conversationId: id, visible: false }, owner.accessToken)).status,
    ).toBe(200);
    expect((await updated).conversation.historyVisible).toBe(false);
    expect((await entry).message.system).toMatchObject({ kind: 'historyHidden' });

    // Added through the other process: «Скрыта» holds there too.
    const addLate = { conversationId: id, userIds: [late.user.id] };
    expect((await api2.post('/api/conversations/members/add', addLate, owner.accessToken)).status).toBe(200);
    const lateSees = (await api1.get(`/api/conversations/${id}/messages`, late.accessToken)).body.messages as Msg[];
    expect(lateSees.filter((m) => m.type === 'TEXT')).toEqual([]);

    expect(
      (await api2.post('/api/conversations/history', { conversationId: id, visible: true }, owner.accessToken)).status,
    ).toBe(200);
    const addLater = { conversationId: id, userIds: [later.user.id] };
    expect((await api1.post('/api/conversations/members/add', addLater, owner.accessToken)).status).toBe(200);
    const laterSees = (await api2.get(`/api/conversations/${id}/messages`, later.accessToken)).body.messages as Msg[];
    expect(laterSees.filter((m) => m.type === 'TEXT').map((m) => m.content)).toEqual(['смена 1']);
  });
});
