// «Каталог участников» and «Открытые группы» over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL
// (docs/behaviour.md §10.25): off, both lists answer exactly what an unknown address answers and a group cannot take
// a stranger; on, people are found by name (case and «ё» folded), @username and EBLID, never deactivated accounts or
// those who blocked the searcher, and a group can be made with them; an open group is listed with its member count,
// joined with one click (a SYSTEM entry, live), a closed one refuses, and only owners and admins open a group. With
// Redis, two servers of one deployment: the switch, opening and joining are seen across them at once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { type Api, ack, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let admin: TestUser;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;

const directory = (on: boolean) => api.patch('/api/admin/settings', { directory: on }, admin.accessToken);
const people = (u: TestUser, q = '') =>
  api.get(`/api/directory/users${q ? `?q=${encodeURIComponent(q)}` : ''}`, u.accessToken);
const groups = (u: TestUser, q = '') =>
  api.get(`/api/directory/groups${q ? `?q=${encodeURIComponent(q)}` : ''}`, u.accessToken);
const ids = (users: { id: string }[]) => users.map((u) => u.id);

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  // The first account administers the server.
  admin = await api.user('admin');
  [anna, boris, vera] = await Promise.all(['anna', 'boris', 'vera'].map((n) => api.user(n)));
  await api.patch('/api/status/me', { displayName: 'Вероника Ёлкина' }, vera.accessToken);
});
afterAll(() => srv?.close());
afterEach(async () => {
  closeAll();
  await directory(false);
});

describe('the directory off (the default)', () => {
  it('answers 404 to both lists, word for word as an unknown address does, and the instance says it is off', async () => {
    expect((await api.get('/api/instance')).body.directory).toBe(false);
    for (const path of ['/api/directory/users', '/api/directory/groups']) {
      const res = await api.get(`${path}?q=${encodeURIComponent('Вероника')}`, anna.accessToken);
      const unknown = await api.get(`${path.replace('directory', 'nowhere')}?q=x`, anna.accessToken);
      expect(res.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(res.body).toEqual({ message: `Нет такого адреса: GET ${path}` });
      expect(Object.keys(res.body)).toEqual(Object.keys(unknown.body));
    }
  });

  it('lets a group take friends only', async () => {
    const res = await api.post(
      '/api/conversations',
      { participantIds: [boris.user.id, vera.user.id], title: 'Чужие', isGroup: true },
      anna.accessToken,
    );
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('В беседу можно добавить только друзей');
  });

  it('is changed by administrators only', async () => {
    expect((await api.patch('/api/admin/settings', { directory: true }, anna.accessToken)).status).toBe(403);
    expect((await api.get('/api/instance')).body.directory).toBe(false);
  });
});

describe('the directory on', () => {
  it('finds people by name (case and «ё» folded), @username and EBLID, and lists everyone else without a query', async () => {
    expect((await directory(true)).body.settings.directory).toBe(true);
    expect((await api.get('/api/instance')).body.directory).toBe(true);
    const all = await people(anna);
    expect(all.status).toBe(200);
    expect(ids(all.body.users)).toEqual(expect.arrayContaining([admin.user.id, boris.user.id, vera.user.id]));
    expect(ids(all.body.users)).not.toContain(anna.user.id);
    expect(ids((await people(anna, 'ВЕРОНИКА елкина')).body.users)).toEqual([vera.user.id]);
    expect(ids((await people(anna, `@${boris.username}`)).body.users)).toEqual([boris.user.id]);
    expect(ids((await people(anna, vera.user.eblid)).body.users)).toEqual([vera.user.id]);
    expect((await people(anna, 'никого-такого-нет')).body.users).toEqual([]);
  });

  it('hides deactivated accounts and those who blocked the searcher', async () => {
    await directory(true);
    const [dima, egor] = await Promise.all(['dima', 'egor'].map((n) => api.user(n)));
    expect((await api.post('/api/users/block', { userId: anna.user.id }, dima.accessToken)).status).toBe(200);
    expect((await api.post('/api/admin/users/deactivate', { userId: egor.user.id }, admin.accessToken)).status).toBe(
      200,
    );
    const seen = ids((await people(anna)).body.users);
    expect(seen).not.toContain(dima.user.id);
    expect(seen).not.toContain(egor.user.id);
    expect(ids((await people(boris)).body.users)).toContain(dima.user.id);
    // Nor can they be put in a group by someone who should not find them.
    const res = await api.post(
      '/api/conversations',
      { participantIds: [boris.user.id, dima.user.id], isGroup: true },
      anna.accessToken,
    );
    expect(res.status).toBe(403);
  });

  it('lets a group be made with, and added to by, people found there who are nobody’s friends', async () => {
    await directory(true);
    const made = await api.post(
      '/api/conversations',
      { participantIds: [boris.user.id, vera.user.id], title: 'Команда', isGroup: true },
      anna.accessToken,
    );
    expect(made.status).toBe(200);
    expect(ids(made.body.conversation.participants.map((p: { user: { id: string } }) => p.user))).toHaveLength(3);
    const late = await api.user('late');
    const added = await api.post(
      '/api/conversations/members/add',
      { conversationId: made.body.conversation.id, userIds: [late.user.id] },
      anna.accessToken,
    );
    expect(added.status).toBe(200);
    expect(added.body.conversation.participants).toHaveLength(4);
    // Turned off again: strangers are refused once more.
    await directory(false);
    const other = await api.user('other');
    const refused = await api.post(
      '/api/conversations/members/add',
      { conversationId: made.body.conversation.id, userIds: [other.user.id] },
      anna.accessToken,
    );
    expect(refused.status).toBe(403);
  });
});

describe('open groups', () => {
  let club: string;
  let gleb: TestUser;

  beforeAll(async () => {
    await befriend(api, anna, boris);
    club = (
      await api.post(
        '/api/conversations',
        { participantIds: [boris.user.id], title: 'Открытый клуб', isGroup: true },
        anna.accessToken,
      )
    ).body.conversation.id;
    gleb = await api.user('gleb');
  });

  it('are opened by owners and admins only, and the members hear it', async () => {
    const refused = await api.patch(`/api/conversations/${club}`, { open: true }, boris.accessToken);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Это могут только владелец и администраторы группы');
    const borisSocket = await connect(srv.url, boris.accessToken);
    const heard = next(
      borisSocket,
      'conversation:updated',
      (p: { conversation: { id: string; open?: boolean } }) =>
        p.conversation.id === club && p.conversation.open === true,
    );
    const opened = await api.patch(`/api/conversations/${club}`, { open: true }, anna.accessToken);
    expect(opened.status).toBe(200);
    expect(opened.body.conversation.open).toBe(true);
    await heard;
  });

  it('are listed with their member count while the directory is on, and 404 while it is off', async () => {
    expect((await groups(gleb)).status).toBe(404);
    await directory(true);
    const listed = await groups(gleb, 'клуб');
    expect(listed.status).toBe(200);
    expect(listed.body.groups).toEqual([
      { id: club, title: 'Открытый клуб', avatarUrl: null, memberCount: 2, member: false },
    ]);
    expect((await groups(anna, 'клуб')).body.groups[0].member).toBe(true);
  });

  it('are joined with one click: a SYSTEM entry, live to the members; twice is harmless', async () => {
    // With the directory off no open group is reachable.
    const off = await api.post(`/api/groups/${club}/join`, {}, gleb.accessToken);
    expect(off.status).toBe(404);
    expect(off.body).toEqual({ message: 'Открытая группа не найдена' });
    await directory(true);
    const annaSocket = await connect(srv.url, anna.accessToken);
    expect(await ack(annaSocket, 'conversation:join', club)).toEqual({ ok: true });
    const entry = next(
      annaSocket,
      'message:new',
      (p: { message: { type: string; system?: unknown } }) => p.message.type === 'SYSTEM',
    );
    const joined = await api.post(`/api/groups/${club}/join`, {}, gleb.accessToken);
    expect(joined.status).toBe(200);
    expect(joined.body.conversation.participants).toHaveLength(3);
    expect((await entry).message.system).toMatchObject({ kind: 'joinedOpen', actor: { id: gleb.user.id } });
    expect((await api.post(`/api/groups/${club}/join`, {}, gleb.accessToken)).status).toBe(200);
    const members = await api.get(`/api/conversations/${club}/messages`, anna.accessToken);
    expect(members.body.messages.filter((m: { type: string }) => m.type === 'SYSTEM')).toHaveLength(2);
  });

  it('refuse to be joined once closed, as an unknown group does, and leave the list', async () => {
    await directory(true);
    expect((await api.patch(`/api/conversations/${club}`, { open: false }, anna.accessToken)).status).toBe(200);
    const zoya = await api.user('zoya');
    const closed = await api.post(`/api/groups/${club}/join`, {}, zoya.accessToken);
    const unknown = await api.post('/api/groups/00000000-0000-4000-8000-000000000000/join', {}, zoya.accessToken);
    expect(closed.status).toBe(404);
    expect(closed.body).toEqual({ message: 'Открытая группа не найдена' });
    expect(unknown.body).toEqual(closed.body);
    expect((await groups(zoya, 'клуб')).body.groups).toEqual([]);
  });
});

describe.skipIf(!(await redisAvailable()))('two servers behind Redis', () => {
  let one: TestServer;
  let two: TestServer;
  let api1: Api;
  let api2: Api;
  let boss: TestUser;
  let member: TestUser;
  let newcomer: TestUser;

  beforeAll(async () => {
    one = await startTestServer({ redisUrl });
    two = await startTestServer({ redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl });
    api1 = client(one.url);
    api2 = client(two.url);
    boss = await api1.user('boss');
    [member, newcomer] = await Promise.all([api1.user('member'), api2.user('newcomer')]);
  });
  afterAll(async () => {
    closeAll();
    await two?.close();
    await one?.close();
  });

  it('the switch made on one server holds on the other; opening and joining are heard across them', async () => {
    expect((await api2.get('/api/directory/users', newcomer.accessToken)).status).toBe(404);
    expect((await api1.patch('/api/admin/settings', { directory: true }, boss.accessToken)).status).toBe(200);
    expect(ids((await api2.get('/api/directory/users', newcomer.accessToken)).body.users)).toContain(member.user.id);
    // Not friends: the directory lets the group take them.
    const group = (
      await api1.post(
        '/api/conversations',
        { participantIds: [member.user.id], title: 'Через два сервера', isGroup: true },
        boss.accessToken,
      )
    ).body.conversation.id as string;
    const memberOnTwo = await connect(two.url, member.accessToken);
    const opened = next(
      memberOnTwo,
      'conversation:updated',
      (p: { conversation: { id: string; open?: boolean } }) =>
        p.conversation.id === group && p.conversation.open === true,
    );
    expect((await api1.patch(`/api/conversations/${group}`, { open: true }, boss.accessToken)).status).toBe(200);
    await opened;
    const bossOnOne = await connect(one.url, boss.accessToken);
    expect(await ack(bossOnOne, 'conversation:join', group)).toEqual({ ok: true });
    const entry = next(bossOnOne, 'message:new', (p: { message: { type: string } }) => p.message.type === 'SYSTEM');
    const newcomerOnTwo = await connect(two.url, newcomer.accessToken);
    const arrived = next(
      newcomerOnTwo,
      'conversations:new',
      (p: { conversation: { id: string } }) => p.conversation.id === group,
    );
    expect((await api2.post(`/api/groups/${group}/join`, {}, newcomer.accessToken)).status).toBe(200);
    expect((await entry).message).toMatchObject({ system: { kind: 'joinedOpen', actor: { id: newcomer.user.id } } });
    await arrived;
    expect((await api1.patch('/api/admin/settings', { directory: false }, boss.accessToken)).status).toBe(200);
    expect((await api2.get('/api/directory/groups', newcomer.accessToken)).status).toBe(404);
  });
});
