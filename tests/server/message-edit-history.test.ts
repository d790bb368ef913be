// «История изменений» over the real server (SQLite, or PostgreSQL with TEST_PG_URL): an edit keeps the text it
// replaced (server/messages/message-history.ts); whoever can read the message reads its versions, newest first
// after the current one; everyone else is refused as when reading the message; deleting it for everyone takes the
// versions with it; a secret chat keeps none.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { opaque, secretDevice } from './secret-helpers';
import { type Api, befriend, closeAll, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let eve: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [alice, bob, carol, eve] = await Promise.all([
    api.user('alice'),
    api.user('bob'),
    api.user('carol'),
    api.user('eve'),
  ]);
  await befriend(api, alice, bob);
  await befriend(api, alice, carol);
});
afterAll(() => srv?.close());
afterEach(closeAll);

type Version = { content: string; at: string; current?: boolean; entities?: unknown[] };
const group = async () => {
  const res = await api.post(
    '/api/conversations',
    { participantIds: [bob.user.id, carol.user.id], isGroup: true, title: 'Правки' },
    alice.accessToken,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.conversation.id as string;
};
const send = async (conversationId: string, content: string, entities?: unknown[]) => {
  const res = await api.post(
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content, ...(entities ? { entities } : {}) },
    alice.accessToken,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message as { id: string; createdAt: string };
};
const edit = async (messageId: string, content: string, entities?: unknown[]) => {
  const res = await api.post(
    '/api/messages/edit',
    { messageId, content, ...(entities ? { entities } : {}) },
    alice.accessToken,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message as { editedAt: string };
};
const versions = (u: TestUser, id: string) => api.get(`/api/messages/${id}/edits`, u.accessToken);
const stored = async (id: string) =>
  (await srv.server.ctx.db.selectFrom('message_edits').select('content').where('message_id', '=', id).execute()).length;

describe('edit history', () => {
  it('lists the current text, then the earlier ones newest first, each with the time it was written', async () => {
    const g = await group();
    const bold = [{ type: 'bold', offset: 0, length: 6 }];
    const sent = await send(g, 'первый текст', bold);
    const one = await edit(sent.id, 'второй текст');
    const two = await edit(sent.id, 'третий текст');
    // The same text again is not an edit: nothing more is kept.
    await edit(sent.id, 'третий текст');
    for (const reader of [alice, bob]) {
      const res = await versions(reader, sent.id);
      expect(res.status).toBe(200);
      expect(res.body.versions).toEqual([
        { content: 'третий текст', at: two.editedAt, current: true },
        { content: 'второй текст', at: one.editedAt },
        { content: 'первый текст', entities: bold, at: sent.createdAt },
      ] satisfies Version[]);
    }
    // A message never edited: the current text alone.
    const plain = await send(g, 'как есть');
    expect((await versions(carol, plain.id)).body.versions).toEqual([
      { content: 'как есть', at: plain.createdAt, current: true },
    ]);
  });

  it('refuses whoever cannot read the message, in Russian, as reading it does', async () => {
    const g = await group();
    const sent = await send(g, 'было');
    await edit(sent.id, 'стало');
    const refused = async (u: TestUser, id: string, status: number) => {
      const res = await versions(u, id);
      expect(res.status).toBe(status);
      expect(res.body.message).toMatch(/[а-яё]/i);
      expect(res.body.versions).toBeUndefined();
    };
    await refused(eve, sent.id, 404); // not a member
    await refused(bob, 'не-id', 400);
    await refused(bob, '00000000-0000-4000-8000-000000000000', 404);
    expect((await api.get(`/api/messages/${sent.id}/edits`)).status).toBe(401);
    // «Удалить у меня»: hidden for Bob, so its history too.
    expect((await api.post('/api/messages/hide', { messageIds: [sent.id] }, bob.accessToken)).status).toBe(200);
    await refused(bob, sent.id, 404);
    // «Очистить историю»: Carol's history starts after it.
    expect((await api.post('/api/conversations/clear', { conversationId: g }, carol.accessToken)).status).toBe(200);
    await refused(carol, sent.id, 404);
    // A removed member reads nothing of it any more.
    const later = await send(g, 'ещё');
    await edit(later.id, 'ещё раз');
    expect((await versions(carol, later.id)).status).toBe(200);
    expect(
      (
        await api.post(
          '/api/conversations/members/remove',
          { conversationId: g, userId: carol.user.id },
          alice.accessToken,
        )
      ).status,
    ).toBe(200);
    await refused(carol, later.id, 404);
    expect((await versions(alice, later.id)).status).toBe(200);
  });

  it('a message deleted for everyone takes its versions with it', async () => {
    const g = await group();
    const sent = await send(g, 'черновик');
    await edit(sent.id, 'чистовик');
    expect(await stored(sent.id)).toBe(1);
    expect((await api.post('/api/messages/delete', { messageId: sent.id }, alice.accessToken)).status).toBe(200);
    expect(await stored(sent.id)).toBe(0);
    const res = await versions(bob, sent.id);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Сообщение не найдено');
  });

  it('a secret chat keeps no versions on the server', async () => {
    const [deviceId, bobDevice] = await Promise.all([
      secretDevice(api, alice.accessToken),
      secretDevice(api, bob.accessToken),
    ]);
    const created = await api.post(
      '/api/secret/conversations',
      { deviceId, memberIds: [bob.user.id], deviceIds: [bobDevice], groupId: opaque(32), welcome: opaque(200) },
      alice.accessToken,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const s = created.body.conversation.id as string;
    const { epoch } = (
      await api.get(`/api/secret/conversations/${s}/log?deviceId=${deviceId}&after=0`, alice.accessToken)
    ).body;
    const sent = await api.post(
      '/api/secret/send',
      { conversationId: s, deviceId, epoch, ciphertext: opaque(120), clientMessageId: 'c-history' },
      alice.accessToken,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.message.id as string;
    expect(
      (await api.post('/api/messages/edit', { messageId: id, content: 'открытым текстом' }, alice.accessToken)).status,
    ).toBe(400);
    expect(await stored(id)).toBe(0);
    const res = await versions(bob, id);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('В секретном чате сообщения шифруются на устройстве');
  });
});
