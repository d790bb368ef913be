// Editing own messages and reactions over real HTTP and websockets on the real server (SQLite, or PostgreSQL
// with TEST_PG_URL): server/messages/message-edits.routes.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryCount } from '../../server/db/database';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

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
  await befriend(api, eve, carol);
});
afterAll(() => srv.close());
afterEach(closeAll);

type Msg = {
  id: string;
  type: string;
  content: string;
  editedAt: string | null;
  replyTo: { id: string; content: string } | null;
  reactions: { emoji: string; userIds: string[] }[];
};

const direct = async (a: TestUser, b: TestUser) => {
  const res = await api.post('/api/conversations/with', { userId: b.user.id }, a.accessToken);
  expect(res.status).toBe(200);
  return res.body.conversation.id as string;
};
const text = async (u: TestUser, conversationId: string, content: string, replyToId?: string) => {
  const res = await api.post(
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content, replyToId },
    u.accessToken,
  );
  expect(res.status).toBe(200);
  return res.body.message as Msg;
};
const edit = (u: TestUser, messageId: string, content: string) =>
  api.post('/api/messages/edit', { messageId, content }, u.accessToken);
const react = (u: TestUser, messageId: string, emoji: string, on = true) =>
  api.post('/api/messages/react', { messageId, emoji, on }, u.accessToken);
const history = async (u: TestUser, conversationId: string, limit = 50) => {
  const res = await api.get(`/api/conversations/${conversationId}/messages?limit=${limit}`, u.accessToken);
  expect(res.status).toBe(200);
  return res.body.messages as Msg[];
};
const latestInList = async (u: TestUser, conversationId: string) => {
  const res = await api.get('/api/conversations', u.accessToken);
  const entry = (res.body.conversations as { conversation: { id: string; messages: Msg[] } }[]).find(
    (e) => e.conversation.id === conversationId,
  );
  return entry?.conversation.messages[0];
};

describe('editing a message', () => {
  it('changes the text for everyone: the answer, history, quotes, the list preview and message:edited to every member', async () => {
    const c = await direct(alice, bob);
    const original = await text(alice, c, 'опечтка');
    const quote = await text(bob, c, 'ответ', original.id);
    expect(quote.replyTo?.content).toBe('опечтка');
    const [a2, b1] = await Promise.all([connect(srv.url, alice.accessToken), connect(srv.url, bob.accessToken)]);
    const seenByBob = next(b1, 'message:edited');
    const seenByAlice = next(a2, 'message:edited');

    const res = await edit(alice, original.id, '  опечатка  ');
    expect(res.status).toBe(200);
    expect(res.body.message.content).toBe('опечатка');
    expect(res.body.message.editedAt).toEqual(expect.any(String));
    const live = await seenByBob;
    expect(live).toEqual({
      conversationId: c,
      messageId: original.id,
      content: 'опечатка',
      editedAt: res.body.message.editedAt,
      mentions: [],
    });
    expect((await seenByAlice).messageId).toBe(original.id);

    const page = await history(bob, c);
    expect(page.find((m) => m.id === original.id)).toMatchObject({
      content: 'опечатка',
      editedAt: res.body.message.editedAt,
    });
    expect(page.find((m) => m.id === quote.id)?.replyTo?.content).toBe('опечатка');
    // The quote is the latest message; make the edited one the latest to see the preview follow.
    const last = await text(alice, c, 'ещё');
    await edit(alice, last.id, 'ещё раз');
    expect(await latestInList(bob, c)).toMatchObject({ id: last.id, content: 'ещё раз', editedAt: expect.any(String) });
  });

  it('is idempotent: the same text again is one edit (no new time, no event)', async () => {
    const c = await direct(alice, bob);
    const m = await text(alice, c, 'раз');
    const first = await edit(alice, m.id, 'два');
    const b = await connect(srv.url, bob.accessToken);
    const seen = recorder(b);
    const again = await edit(alice, m.id, ' два ');
    expect(again.status).toBe(200);
    expect(again.body.message.editedAt).toBe(first.body.message.editedAt);
    await roundTrip(b);
    expect(seen.events()).not.toContain('message:edited');
  });

  it('refuses bad input with a Russian 4xx and changes nothing', async () => {
    const c = await direct(alice, bob);
    const m = await text(alice, c, 'моё');
    const theirs = await text(bob, c, 'чужое');
    const elsewhere = await text(carol, await direct(carol, eve), 'другая беседа');
    const cases: [TestUser, Record<string, unknown>, number][] = [
      [bob, { messageId: m.id, content: 'взлом' }, 403], // someone else's message
      [alice, { messageId: elsewhere.id, content: 'x' }, 404], // another conversation's message
      [alice, { messageId: 'nope', content: 'x' }, 404],
      [alice, { messageId: m.id, content: '   ' }, 400],
      [alice, { messageId: m.id, content: 'x'.repeat(4001) }, 400],
      [alice, { messageId: m.id, content: 'x', extra: 1 }, 400],
      [alice, { messageId: m.id }, 400],
      [alice, { messageId: theirs.id, content: 'x' }, 403],
    ];
    for (const [u, body, status] of cases) {
      const res = await api.post('/api/messages/edit', body, u.accessToken);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    expect((await api.post('/api/messages/edit', { messageId: m.id, content: 'x' })).status).toBe(401);
    // A deleted message is gone for editing too.
    expect((await api.post('/api/messages/delete', { messageId: m.id }, alice.accessToken)).status).toBe(200);
    const gone = await edit(alice, m.id, 'поздно');
    expect(gone.status).toBe(404);
    const page = await history(alice, c);
    expect(page.find((x) => x.id === theirs.id)).toMatchObject({ content: 'чужое', editedAt: null });
    expect((await history(carol, await direct(carol, eve))).find((x) => x.id === elsewhere.id)?.content).toBe(
      'другая беседа',
    );
  });

  it('never sends message:edited to sockets of non-members', async () => {
    const c = await direct(alice, bob);
    const m = await text(alice, c, 'тайна');
    const [outsider, member] = await Promise.all([
      connect(srv.url, carol.accessToken),
      connect(srv.url, bob.accessToken),
    ]);
    const seen = recorder(outsider);
    const arrived = next(member, 'message:edited');
    await edit(alice, m.id, 'тайна!');
    await arrived;
    await roundTrip(outsider);
    expect(seen.events()).not.toContain('message:edited');
  });
});

describe('reactions', () => {
  it('adds several different reactions per user, each once, removes one, and tells every member live', async () => {
    const c = await direct(alice, bob);
    const m = await text(alice, c, 'новости');
    const [a, b] = await Promise.all([connect(srv.url, alice.accessToken), connect(srv.url, bob.accessToken)]);
    const live = next<{ messageId: string; reactions: unknown[] }>(
      a,
      'reactions:update',
      (p) => p.reactions.length === 2,
    );
    expect((await react(bob, m.id, '❤️')).status).toBe(200);
    const res = await react(bob, m.id, '👍');
    expect(res.body.reactions).toEqual([
      { emoji: '👍', userIds: [bob.user.id] },
      { emoji: '❤️', userIds: [bob.user.id] },
    ]);
    expect((await live).messageId).toBe(m.id);
    const bSeen = recorder(b);
    // The same reaction again changes nothing and tells nobody.
    expect((await react(bob, m.id, '👍')).body.reactions).toHaveLength(2);
    await react(alice, m.id, '👍');
    const removed = next(
      b,
      'reactions:update',
      (p: { reactions: { emoji: string }[] }) => !p.reactions.some((r) => r.emoji === '❤️'),
    );
    await react(bob, m.id, '❤️', false);
    expect((await removed).reactions).toEqual([{ emoji: '👍', userIds: [bob.user.id, alice.user.id] }]);
    expect(bSeen.events().filter((e) => e === 'reactions:update')).toHaveLength(2);
    const page = await history(alice, c);
    expect(page.find((x) => x.id === m.id)?.reactions).toEqual([
      { emoji: '👍', userIds: [bob.user.id, alice.user.id] },
    ]);
  });

  it('refuses what is not one emoji, non-members, deleted messages and unknown fields, changing nothing', async () => {
    const c = await direct(alice, bob);
    const m = await text(alice, c, 'реагируйте');
    const cases: [TestUser, Record<string, unknown>, number][] = [
      [bob, { messageId: m.id, emoji: 'ab', on: true }, 400],
      [bob, { messageId: m.id, emoji: '1', on: true }, 400],
      [bob, { messageId: m.id, emoji: '👍👍', on: true }, 400],
      [bob, { messageId: m.id, emoji: '', on: true }, 400],
      [bob, { messageId: m.id, emoji: '<img src=x onerror=alert(1)>', on: true }, 400],
      [bob, { messageId: m.id, emoji: '👍', on: true, extra: 1 }, 400],
      [bob, { messageId: m.id, emoji: '👍' }, 400],
      [eve, { messageId: m.id, emoji: '👍', on: true }, 404],
      [carol, { messageId: m.id, emoji: '👍', on: true }, 404],
    ];
    for (const [u, body, status] of cases) {
      const res = await api.post('/api/messages/react', body, u.accessToken);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    expect((await history(alice, c)).find((x) => x.id === m.id)?.reactions).toEqual([]);
    await api.post('/api/messages/delete', { messageId: m.id }, alice.accessToken);
    expect((await react(bob, m.id, '👍')).status).toBe(404);
  });

  it('never sends reactions:update to sockets of non-members', async () => {
    const c = await direct(alice, bob);
    const m = await text(alice, c, 'только нам');
    const [outsider, member] = await Promise.all([
      connect(srv.url, carol.accessToken),
      connect(srv.url, alice.accessToken),
    ]);
    const seen = recorder(outsider);
    const arrived = next(member, 'reactions:update');
    await react(bob, m.id, '😂');
    await arrived;
    await roundTrip(outsider);
    expect(seen.events()).not.toContain('reactions:update');
  });

  it('loads a history page with its reactions in a fixed number of queries, whatever the number of messages', async () => {
    const group = await api.post(
      '/api/conversations',
      { participantIds: [bob.user.id], title: 'Счёт', isGroup: true },
      alice.accessToken,
    );
    const c = group.body.conversation.id as string;
    // The fewer of two reads: a statement some other work ran meanwhile (a timer, a request's tail) is not the page's.
    const once = async () => {
      const before = queryCount(srv.server.ctx.db);
      const page = await history(alice, c, 200);
      return { queries: queryCount(srv.server.ctx.db) - before, page };
    };
    const measure = async () => {
      const [a, b] = [await once(), await once()];
      return a.queries <= b.queries ? a : b;
    };
    const first = await text(alice, c, 'первое');
    await react(bob, first.id, '🙏');
    const few = await measure();
    for (let i = 0; i < 30; i++) {
      const m = await text(i % 2 ? alice : bob, c, `сообщение ${i}`);
      await Promise.all(['👍', '❤️', '😮'].map((e) => react(i % 2 ? bob : alice, m.id, e)));
    }
    const many = await measure();
    // The group's «создал(а) группу» entry, then the 31 messages.
    const messages = many.page.filter((m) => m.type !== 'SYSTEM');
    expect(many.page).toHaveLength(32);
    expect(messages).toHaveLength(31);
    expect(messages.every((m) => m.reactions.length === (m.id === first.id ? 1 : 3))).toBe(true);
    expect(many.queries).toBe(few.queries);
    expect(many.queries).toBeLessThan(8);
  });
});
