// Chat folders («Папки», docs/behaviour.md §10.47) against the real server, on SQLite and (with TEST_PG_URL)
// PostgreSQL: create, change, reorder and delete; what the routes refuse (with a Russian message); another's folder
// and another's chat; folders:updated reaching every socket of the owner (and, behind Redis, the sockets held by
// another server process); and a chat its owner is removed from dropping out of the folder.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { type Api, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

type Folder = {
  id: string;
  name: string;
  rules: { direct: boolean; groups: boolean; unread: boolean; muted: boolean };
  includedIds: string[];
  excludedIds: string[];
};
const NONE = { direct: false, groups: false, unread: false, muted: false };

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let work: string;
let direct: string;
let verasOwn: string;

const create = (u: TestUser, body: unknown) => api.post('/api/folders', body, u.accessToken);
const update = (u: TestUser, id: string, body: unknown) =>
  api.call('PATCH', `/api/folders/${id}`, { body, token: u.accessToken });
const remove = (u: TestUser, id: string) => api.call('DELETE', `/api/folders/${id}`, { token: u.accessToken });
const reorder = (u: TestUser, ids: string[]) => api.post('/api/folders/order', { ids }, u.accessToken);
const list = async (u: TestUser): Promise<Folder[]> => (await api.get('/api/folders', u.accessToken)).body.folders;
async function clear(u: TestUser) {
  for (const f of await list(u)) expect((await remove(u, f.id)).status).toBe(200);
}

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, vera] = await Promise.all(['anna', 'boris', 'vera'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
  await befriend(api, boris, vera);
  work = (
    await api.post(
      '/api/conversations',
      { participantIds: [anna.user.id], title: 'Работа', isGroup: true },
      boris.accessToken,
    )
  ).body.conversation.id;
  direct = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body.conversation
    .id;
  verasOwn = (await api.post('/api/conversations/with', { userId: boris.user.id }, vera.accessToken)).body.conversation
    .id;
});
afterAll(() => srv?.close());
afterEach(async () => {
  closeAll();
  await clear(anna);
  await clear(boris);
});

describe('chat folders', () => {
  it('creates, lists, changes and deletes one’s own folders, the name trimmed', async () => {
    const made = await create(anna, { name: '  Работа ', rules: NONE, includedIds: [work] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const folder: Folder = made.body.folder;
    expect(folder).toEqual({ id: folder.id, name: 'Работа', rules: NONE, includedIds: [work], excludedIds: [] });
    const rules = { direct: true, groups: false, unread: true, muted: false };
    const other = (await create(anna, { name: 'Личное', rules, includedIds: [], excludedIds: [direct] })).body.folder;
    expect(other.rules).toEqual(rules);
    expect(other.excludedIds).toEqual([direct]);
    expect((await list(anna)).map((f) => f.name)).toEqual(['Работа', 'Личное']);

    const changed = await update(anna, folder.id, { name: 'Дела', rules: { ...NONE, groups: true }, includedIds: [] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.folder).toMatchObject({ name: 'Дела', rules: { groups: true }, includedIds: [] });

    expect((await remove(anna, other.id)).status).toBe(200);
    expect((await list(anna)).map((f) => f.name)).toEqual(['Дела']);
    // Someone else's list is their own.
    expect(await list(boris)).toEqual([]);
  });

  it('reorders the tabs, and refuses an order that does not name each folder once', async () => {
    const ids: string[] = [];
    for (const name of ['А', 'Б', 'В']) {
      ids.push((await create(anna, { name, rules: { ...NONE, direct: true }, includedIds: [] })).body.folder.id);
    }
    const r = await reorder(anna, [ids[2], ids[0], ids[1]] as string[]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.folders.map((f: Folder) => f.name)).toEqual(['В', 'А', 'Б']);
    expect((await list(anna)).map((f) => f.name)).toEqual(['В', 'А', 'Б']);
    // A new folder goes last.
    await create(anna, { name: 'Г', rules: { ...NONE, muted: true }, includedIds: [] });
    expect((await list(anna)).map((f) => f.name)).toEqual(['В', 'А', 'Б', 'Г']);
    for (const bad of [[ids[0]], [...ids, ids[0]], [ids[0], ids[1], ids[2], ids[2]]]) {
      const refused = await reorder(anna, bad as string[]);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Порядок должен назвать каждую папку один раз');
    }
    expect((await list(anna)).map((f) => f.name)).toEqual(['В', 'А', 'Б', 'Г']);
  });

  it.each([
    [{ name: '', rules: NONE, includedIds: ['x'] }, 'Название папки — от 1 до 12 символов'],
    [{ name: '    ', rules: { ...NONE, direct: true }, includedIds: [] }, 'Название папки — от 1 до 12 символов'],
    [
      { name: 'Тринадцать бу', rules: { ...NONE, direct: true }, includedIds: [] },
      'Название папки — от 1 до 12 символов',
    ],
    [{ name: 'Пусто', rules: NONE, includedIds: [] }, 'Выберите чаты или хотя бы одно правило'],
    [{ name: 'a\u0000b', rules: { ...NONE, direct: true }, includedIds: [] }, 'Текст содержит недопустимый символ'],
    [{ name: 'Лишнее', rules: { ...NONE, direct: true }, includedIds: [], color: 'red' }, 'Неизвестные поля: color'],
    [{ name: 'Правила', rules: { direct: true }, includedIds: [] }, /неверный тип/],
  ])('refuses %j with 400 and a Russian message', async (body, message) => {
    const r = await create(anna, body);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(message);
    expect(await list(anna)).toEqual([]);
  });

  it('keeps a name of 12 characters, emoji counted as one each', async () => {
    const r = await create(anna, { name: '🚀 Двенадцать', rules: { ...NONE, groups: true }, includedIds: [] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.folder.name).toBe('🚀 Двенадцать');
  });

  it('refuses an eleventh folder', async () => {
    for (let i = 1; i <= 10; i++) {
      expect((await create(anna, { name: `П${i}`, rules: { ...NONE, unread: true }, includedIds: [] })).status).toBe(
        200,
      );
    }
    const r = await create(anna, { name: 'Лишняя', rules: { ...NONE, unread: true }, includedIds: [] });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Можно создать не больше 10 папок');
    expect(await list(anna)).toHaveLength(10);
  });

  it('refuses chats one is not in, and a chat both in and out', async () => {
    const theirs = await create(anna, { name: 'Чужое', rules: NONE, includedIds: [verasOwn] });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('Беседа не найдена');
    const excluded = await create(anna, {
      name: 'Чужое',
      rules: { ...NONE, groups: true },
      includedIds: [],
      excludedIds: [verasOwn],
    });
    expect(excluded.status).toBe(404);
    const both = await create(anna, { name: 'Спор', rules: NONE, includedIds: [work], excludedIds: [work] });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe('Чат не может быть и в папке, и вне её');
    const mine = (await create(anna, { name: 'Своё', rules: NONE, includedIds: [work] })).body.folder;
    expect((await update(anna, mine.id, { name: 'Своё', rules: NONE, includedIds: [verasOwn] })).status).toBe(404);
    expect((await list(anna))[0]?.includedIds).toEqual([work]);
  });

  it('refuses someone else’s folder as not found, and leaves it as it was', async () => {
    const hers = (await create(anna, { name: 'Её', rules: NONE, includedIds: [work] })).body.folder as Folder;
    const change = await update(boris, hers.id, { name: 'Моё', rules: { ...NONE, direct: true }, includedIds: [] });
    expect(change.status).toBe(404);
    expect(change.body.message).toBe('Папка не найдена');
    expect((await remove(boris, hers.id)).status).toBe(404);
    expect((await reorder(boris, [hers.id])).status).toBe(400);
    expect(await list(anna)).toEqual([hers]);
    expect((await api.get('/api/folders')).status).toBe(401);
  });

  it('tells every socket of the owner, and no one else', async () => {
    const tab1 = await connect(srv.url, anna.accessToken);
    const tab2 = await connect(srv.url, anna.accessToken);
    const other = await connect(srv.url, boris.accessToken);
    const heard = recorder(other);
    const first = next(tab1, 'folders:updated');
    const second = next(tab2, 'folders:updated');
    const made = (await create(anna, { name: 'Работа', rules: NONE, includedIds: [work] })).body.folder;
    expect((await first).folders).toEqual([made]);
    expect((await second).folders).toEqual([made]);
    const gone = next(tab2, 'folders:updated');
    await remove(anna, made.id);
    expect((await gone).folders).toEqual([]);
    await roundTrip(other);
    expect(heard.events()).not.toContain('folders:updated');
  });

  it('a chat one is removed from drops out of the folder', async () => {
    const group = (
      await api.post(
        '/api/conversations',
        { participantIds: [anna.user.id], title: 'Дача', isGroup: true },
        boris.accessToken,
      )
    ).body.conversation.id;
    const folder = (await create(anna, { name: 'Дача', rules: NONE, includedIds: [group, direct] })).body.folder;
    expect(folder.includedIds).toEqual([group, direct].sort());
    const removed = await api.post(
      '/api/conversations/members/remove',
      { conversationId: group, userId: anna.user.id },
      boris.accessToken,
    );
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await list(anna))[0]?.includedIds).toEqual([direct]);
    // Nor can it be named again.
    expect((await update(anna, folder.id, { name: 'Дача', rules: NONE, includedIds: [group] })).status).toBe(404);
  });

  it('a deleted account’s folders go with it', async () => {
    const gone = await api.user('gone');
    await befriend(api, gone, boris);
    const chat = (await api.post('/api/conversations/with', { userId: boris.user.id }, gone.accessToken)).body
      .conversation.id;
    expect((await create(gone, { name: 'Моё', rules: NONE, includedIds: [chat] })).status).toBe(200);
    const deleted = await api.post('/api/auth/account/delete', { password: gone.password }, gone.accessToken);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const { db } = srv.server.ctx;
    expect(await db.selectFrom('chat_folders').select('id').where('user_id', '=', gone.user.id).execute()).toEqual([]);
    expect(
      await db.selectFrom('chat_folder_chats').select('folder_id').where('conversation_id', '=', chat).execute(),
    ).toEqual([]);
  });
});

const withRedis = await redisAvailable();

describe.skipIf(!withRedis)('chat folders behind Redis', () => {
  let one: TestServer;
  let two: TestServer;
  afterAll(async () => {
    closeAll();
    await one?.close();
    await two?.close();
  });

  it('a change made through one process reaches the owner’s socket on the other', async () => {
    one = await startTestServer({ redisUrl });
    two = await startTestServer({ redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl });
    const api1 = client(one.url);
    const gala = await api1.user('gala');
    const far = await connect(two.url, gala.accessToken);
    const heard = next(far, 'folders:updated');
    const made = await api1.post(
      '/api/folders',
      { name: 'Всё', rules: { ...NONE, direct: true }, includedIds: [] },
      gala.accessToken,
    );
    expect(made.status).toBe(200);
    expect((await heard).folders).toEqual([made.body.folder]);
  });
});
