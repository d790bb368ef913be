// Conversations, messages and receipts over real HTTP on the real server (SQLite, or PostgreSQL with TEST_PG_URL).

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_STATEMENT } from '../../server/db/background';
import { queryCount } from '../../server/db/database';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [alice, bob, carol, stranger] = await Promise.all([
    api.user('alice'),
    api.user('bob'),
    api.user('carol'),
    api.user('eve'),
  ]);
  await befriend(api, alice, bob);
  await befriend(api, alice, carol);
});
afterAll(() => srv.close());

const direct = async (a: TestUser, b: TestUser) => {
  const res = await api.post('/api/conversations/with', { userId: b.user.id }, a.accessToken);
  expect(res.status).toBe(200);
  return res.body.conversation as { id: string; isGroup: boolean; participants: { user: { id: string } }[] };
};
const send = (u: TestUser, body: Record<string, unknown>) => api.post('/api/conversations/send', body, u.accessToken);
const text = async (u: TestUser, conversationId: string, content: string) => {
  const res = await send(u, { conversationId, type: 'TEXT', content });
  expect(res.status).toBe(200);
  return res.body.message as { id: string; content: string; createdAt: string };
};
const list = async (u: TestUser) => {
  const res = await api.get('/api/conversations', u.accessToken);
  expect(res.status).toBe(200);
  // «Избранное» is in every list (docs/behaviour.md §10.31; tests/server/saved-scheduled.test.ts): the others here.
  return (
    res.body.conversations as {
      conversation: { id: string; saved?: boolean; messages: { id: string; content: string }[] };
      unreadCount: number;
    }[]
  ).filter((e) => !e.conversation.saved);
};
const unread = async (u: TestUser, id: string) => (await list(u)).find((e) => e.conversation.id === id)?.unreadCount;

describe('conversations', () => {
  it('needs a token', async () => {
    expect((await api.get('/api/conversations')).status).toBe(401);
  });

  it('gives a pair one direct conversation, the same id on every call, also concurrently', async () => {
    const [x, y, z] = await Promise.all([
      api.post('/api/conversations/with', { userId: carol.user.id }, alice.accessToken),
      api.post('/api/conversations/with', { userId: alice.user.id }, carol.accessToken),
      api.post('/api/conversations', { participantIds: [carol.user.id], isGroup: false }, alice.accessToken),
    ]);
    expect([x.status, y.status, z.status]).toEqual([200, 200, 200]);
    expect(y.body.conversation.id).toBe(x.body.conversation.id);
    expect(z.body.conversation.id).toBe(x.body.conversation.id);
    expect(x.body.conversation.isGroup).toBe(false);
    expect(x.body.conversation.participants.map((p: { user: { id: string } }) => p.user.id).sort()).toEqual(
      [alice.user.id, carol.user.id].sort(),
    );
    expect((await direct(alice, carol)).id).toBe(x.body.conversation.id);
  });

  it('refuses strangers, oneself and unknown users as participants', async () => {
    const r1 = await api.post('/api/conversations/with', { userId: stranger.user.id }, alice.accessToken);
    expect(r1.status).toBe(403);
    expect(r1.body.message).toMatch(/друз/);
    const r2 = await api.post(
      '/api/conversations',
      { participantIds: [bob.user.id, stranger.user.id], title: 'x' },
      alice.accessToken,
    );
    expect(r2.status).toBe(403);
    expect((await api.post('/api/conversations/with', { userId: alice.user.id }, alice.accessToken)).status).toBe(400);
    expect((await api.post('/api/conversations/with', { userId: 'nobody' }, alice.accessToken)).status).toBe(404);
    expect((await api.post('/api/conversations', { participantIds: [alice.user.id] }, alice.accessToken)).status).toBe(
      400,
    );
    expect((await api.post('/api/conversations', { participantIds: [] }, alice.accessToken)).status).toBe(400);
    expect(
      (await api.post('/api/conversations', { participantIds: [bob.user.id], extra: 1 }, alice.accessToken)).status,
    ).toBe(400);
    expect((await list(stranger)).length).toBe(0);
  });

  it('creates a group with the caller always a member', async () => {
    const res = await api.post(
      '/api/conversations',
      { participantIds: [bob.user.id, carol.user.id, bob.user.id], title: '  Команда  ', isGroup: true },
      alice.accessToken,
    );
    expect(res.status).toBe(200);
    const c = res.body.conversation;
    expect(c.title).toBe('Команда');
    expect(c.isGroup).toBe(true);
    expect(c.participants).toHaveLength(3);
    // Its history opens with «… создал(а) группу».
    expect(c.messages.map((m: { type: string; system?: { kind: string } }) => [m.type, m.system?.kind])).toEqual([
      ['SYSTEM', 'created'],
    ]);
    expect((await list(bob)).some((e) => e.conversation.id === c.id)).toBe(true);
    expect((await list(stranger)).some((e) => e.conversation.id === c.id)).toBe(false);
  });

  it('lists the caller’s conversations newest activity first, each with its latest message', async () => {
    const ab = await direct(alice, bob);
    const ac = await direct(alice, carol);
    await text(bob, ab.id, 'старое');
    await text(carol, ac.id, 'новое');
    let entries = await list(alice);
    expect(entries[0].conversation.id).toBe(ac.id);
    expect(entries[0].conversation.messages.map((m) => m.content)).toEqual(['новое']);
    await text(bob, ab.id, 'ещё новее');
    entries = await list(alice);
    expect(entries[0].conversation.id).toBe(ab.id);
    expect(entries[0].conversation.messages).toHaveLength(1);
    expect(entries[0].conversation.messages[0].content).toBe('ещё новее');
  });

  it('counts none of a background transaction (the search backlog timer’s), BEGIN and COMMIT included', async () => {
    // The timer's BEGIN and COMMIT once landed in a counted list on PostgreSQL (6 queries instead of 5).
    const db = srv.server.ctx.db;
    const before = queryCount(db);
    await db.transaction().execute((trx) => sql`${sql.raw(BACKGROUND_STATEMENT)} SELECT 1`.execute(trx));
    expect(queryCount(db)).toBe(before);
    await db.transaction().execute((trx) => sql`SELECT 1`.execute(trx));
    expect(queryCount(db)).toBe(before + 1);
  });

  it('answers the list with a fixed number of queries however many conversations there are', async () => {
    const owner = await api.user('many');
    const friends = await Promise.all(Array.from({ length: 12 }, () => api.user('f')));
    for (const f of friends) await befriend(api, owner, f);
    // After the sends' tails settle (a send checks for Web Push after its answer), so only the list is counted;
    // one read each, since a second would come from the list cache.
    const measure = async () => {
      await srv.server.ctx.push.settled();
      const before = queryCount(srv.server.ctx.db);
      await list(owner);
      return queryCount(srv.server.ctx.db) - before;
    };
    await direct(owner, friends[0]);
    await text(friends[0], (await direct(owner, friends[0])).id, 'привет');
    const few = await measure();
    for (const f of friends.slice(1)) await text(f, (await direct(f, owner)).id, 'привет');
    const many = await measure();
    expect((await list(owner)).length).toBe(12);
    expect((await list(owner)).every((e) => e.unreadCount === 1)).toBe(true);
    expect(many).toBe(few);
    expect(many).toBeLessThan(10);
  });
});

describe('messages', () => {
  it('sends text trimmed, refuses empty, too long, unknown fields and bad types', async () => {
    const c = await direct(alice, bob);
    const m = await text(alice, c.id, '  привет  ');
    expect(m.content).toBe('привет');
    for (const body of [
      { conversationId: c.id, type: 'TEXT', content: '   ' },
      { conversationId: c.id, type: 'TEXT', content: 'x'.repeat(4001) },
      { conversationId: c.id, type: 'VOICE', content: 'x' },
      { conversationId: c.id, type: 'TEXT', content: 'x', sneaky: true },
      { conversationId: c.id, type: 'TEXT' },
      { conversationId: c.id, type: 'IMAGE', content: '' },
    ]) {
      const res = await send(alice, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    const bad = await api.call('POST', '/api/conversations/send', {
      raw: '{"conversationId":',
      token: alice.accessToken,
    });
    expect(bad.status).toBe(400);
  });

  it('answers 400, never 500, for NUL bytes and malformed ids (PostgreSQL cannot store NUL)', async () => {
    const c = await direct(alice, bob);
    const cases: [string, string, unknown][] = [
      ['POST', '/api/conversations/with', { userId: 'a\u0000b' }],
      ['POST', '/api/conversations/send', { conversationId: c.id, type: 'TEXT', content: 'a\u0000b' }],
      [
        'POST',
        '/api/conversations/send',
        { conversationId: c.id, type: 'TEXT', content: 'x', clientMessageId: 'a\u0000' },
      ],
      ['POST', '/api/conversations', { participantIds: [bob.user.id, carol.user.id], title: 'a\u0000' }],
      ['POST', '/api/messages/receipts', { messageIds: ['../x'], status: 'READ' }],
      ['POST', '/api/messages/delete', { messageId: 'a b' }],
      ['GET', '/api/conversations/a%00b/messages', undefined],
      ['GET', `/api/conversations/${c.id}/messages?before=a%00`, undefined],
    ];
    for (const [method, p, body] of cases) {
      const res = await api.call(method, p, { body, token: alice.accessToken });
      expect(res.status, `${method} ${p} ${JSON.stringify(body)}`).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('keeps non-members out of sending and reading', async () => {
    const c = await direct(alice, bob);
    const s = await send(stranger, { conversationId: c.id, type: 'TEXT', content: 'hi' });
    expect(s.status).toBe(404);
    expect((await api.get(`/api/conversations/${c.id}/messages`, stranger.accessToken)).status).toBe(404);
    expect((await api.get('/api/conversations/nope/messages', alice.accessToken)).status).toBe(404);
    expect((await api.get(`/api/conversations/${c.id}/messages`)).status).toBe(401);
  });

  it('quotes only messages of the same conversation and shows the quote', async () => {
    const ab = await direct(alice, bob);
    const ac = await direct(alice, carol);
    const original = await text(bob, ab.id, 'исходное');
    const other = await text(carol, ac.id, 'чужое');
    const reply = await send(alice, { conversationId: ab.id, type: 'TEXT', content: 'ответ', replyToId: original.id });
    expect(reply.status).toBe(200);
    expect(reply.body.message.replyTo).toEqual({ id: original.id, content: 'исходное' });
    const wrong = await send(alice, { conversationId: ab.id, type: 'TEXT', content: 'x', replyToId: other.id });
    expect(wrong.status).toBe(400);
    const missing = await send(alice, { conversationId: ab.id, type: 'TEXT', content: 'x', replyToId: 'missing' });
    expect(missing.status).toBe(400);
  });

  it('accepts only the sender’s own uploads as attachments', async () => {
    const c = await direct(alice, bob);
    const res = await send(alice, {
      conversationId: c.id,
      type: 'FILE',
      content: '',
      attachments: [{ url: '/uploads/0123456789abcdef0123456789abcdef.bin', type: 'FILE' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/загруженным/);
  });

  it('stores a repeated clientMessageId once and returns the first message', async () => {
    const c = await direct(alice, bob);
    const body = { conversationId: c.id, type: 'TEXT', content: 'один раз', clientMessageId: 'cm-1' };
    const results = await Promise.all([send(alice, body), send(alice, body), send(alice, body)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const ids = new Set(results.map((r) => r.body.message.id));
    expect(ids.size).toBe(1);
    // The same id with another text is no retry: refused (messaging-idempotency.test.ts has every case).
    const again = await send(alice, { ...body, content: 'другой текст' });
    expect(again.status).toBe(409);
    const page = await api.get(`/api/conversations/${c.id}/messages?limit=200`, alice.accessToken);
    expect(page.body.messages.filter((m: { content: string }) => m.content === 'один раз')).toHaveLength(1);
    // The same id from another sender is another message.
    const bobs = await send(bob, body);
    expect(bobs.status).toBe(200);
    expect(bobs.body.message.id).not.toBe(results[0].body.message.id);
  });

  it('pages a long history with before and limit, in ascending order', async () => {
    const dave = await api.user('dave');
    await befriend(api, alice, dave);
    const c = await direct(alice, dave);
    const sent: string[] = [];
    for (let i = 0; i < 25; i++) sent.push((await text(i % 2 ? dave : alice, c.id, `m${i}`)).id);
    const p1 = await api.get(`/api/conversations/${c.id}/messages?limit=10`, alice.accessToken);
    expect(p1.status).toBe(200);
    expect(p1.body.messages.map((m: { id: string }) => m.id)).toEqual(sent.slice(15));
    expect(p1.body.hasMore).toBe(true);
    const p2 = await api.get(
      `/api/conversations/${c.id}/messages?limit=10&before=${p1.body.messages[0].id}`,
      alice.accessToken,
    );
    expect(p2.body.messages.map((m: { id: string }) => m.id)).toEqual(sent.slice(5, 15));
    const p3 = await api.get(
      `/api/conversations/${c.id}/messages?limit=10&before=${p2.body.messages[0].id}`,
      alice.accessToken,
    );
    expect(p3.body.messages.map((m: { id: string }) => m.id)).toEqual(sent.slice(0, 5));
    expect(p3.body.hasMore).toBe(false);
    const all = await api.get(`/api/conversations/${c.id}/messages`, alice.accessToken);
    expect(all.body.messages).toHaveLength(25);
    // An id from another of her chats is not a place in this one.
    const elsewhere = await text(alice, (await direct(alice, bob)).id, 'в другом чате');
    const crossed = await api.get(`/api/conversations/${c.id}/messages?before=${elsewhere.id}`, alice.accessToken);
    expect(crossed.status).toBe(400);
    expect(crossed.body.message).toBe('before: сообщение не найдено в этой беседе');
    for (const q of ['limit=0', 'limit=201', 'limit=abc', 'before=unknown', 'other=1']) {
      expect((await api.get(`/api/conversations/${c.id}/messages?${q}`, alice.accessToken)).status, q).toBe(400);
    }
  });

  it('lets only the sender delete, and hides deleted messages from every list', async () => {
    const c = await direct(alice, bob);
    const keep = await text(bob, c.id, 'останется');
    const gone = await text(bob, c.id, 'будет удалено');
    const quoting = await send(alice, { conversationId: c.id, type: 'TEXT', content: 'цитирую', replyToId: gone.id });
    const byOther = await api.post('/api/messages/delete', { messageId: gone.id }, alice.accessToken);
    expect(byOther.status).toBe(403);
    const byStranger = await api.post('/api/messages/delete', { messageId: gone.id }, stranger.accessToken);
    expect(byStranger.status).toBe(404);
    const ok = await api.post('/api/messages/delete', { messageId: gone.id }, bob.accessToken);
    expect(ok.status).toBe(200);
    expect((await api.post('/api/messages/delete', { messageId: gone.id }, bob.accessToken)).status).toBe(404);
    const page = await api.get(`/api/conversations/${c.id}/messages?limit=200`, alice.accessToken);
    const ids = page.body.messages.map((m: { id: string }) => m.id);
    expect(ids).toContain(keep.id);
    expect(ids).not.toContain(gone.id);
    // The quote of a deleted message no longer shows its text.
    const quote = page.body.messages.find((m: { id: string }) => m.id === quoting.body.message.id);
    expect(quote.replyTo).toEqual({ id: gone.id, content: 'Сообщение удалено' });
    await api.post('/api/messages/delete', { messageId: quoting.body.message.id }, alice.accessToken);
    const entry = (await list(alice)).find((e) => e.conversation.id === c.id);
    expect(entry?.conversation.messages[0].id).toBe(keep.id);
    // A reply to a deleted message is refused.
    expect((await send(alice, { conversationId: c.id, type: 'TEXT', content: 'x', replyToId: gone.id })).status).toBe(
      400,
    );
  });
});

describe('receipts', () => {
  it('unread counts follow receipts and mark-conversation-read', async () => {
    const erin = await api.user('erin');
    await befriend(api, alice, erin);
    const c = await direct(alice, erin);
    const m1 = await text(erin, c.id, 'раз');
    const m2 = await text(erin, c.id, 'два');
    const m3 = await text(erin, c.id, 'три');
    await text(alice, c.id, 'мой ответ');
    expect(await unread(alice, c.id)).toBe(3);
    expect(await unread(erin, c.id)).toBe(1);

    // A receipt moves the reader's cursor: the messages up to the newest one named are read.
    const r = await api.post('/api/messages/receipts', { messageIds: [m1.id], status: 'READ' }, alice.accessToken);
    expect(r.status).toBe(200);
    expect(await unread(alice, c.id)).toBe(2);
    // Repeating, or naming an older message, is harmless.
    await api.post('/api/messages/receipts', { messageIds: [m1.id], status: 'READ' }, alice.accessToken);
    expect(await unread(alice, c.id)).toBe(2);
    await api.post('/api/messages/receipts', { messageIds: [m2.id], status: 'READ' }, alice.accessToken);
    expect(await unread(alice, c.id)).toBe(1);
    await api.post('/api/messages/receipts', { messageIds: [m1.id], status: 'READ' }, alice.accessToken);
    expect(await unread(alice, c.id)).toBe(1);
    const page = await api.get(`/api/conversations/${c.id}/messages`, erin.accessToken);
    const receiptsOf = (id: string) => page.body.messages.find((m: { id: string }) => m.id === id).receipts;
    expect(receiptsOf(m1.id)).toEqual([{ userId: alice.user.id, status: 'READ' }]);
    expect(receiptsOf(m3.id)).toEqual([]);

    expect(
      (await api.post('/api/messages/mark-conversation-read', { conversationId: c.id }, alice.accessToken)).status,
    ).toBe(200);
    expect(await unread(alice, c.id)).toBe(0);
    expect(await unread(erin, c.id)).toBe(1);
    // Messages after the cursor count, and deleting one takes it out of the count.
    const m5 = await text(erin, c.id, 'пять');
    await text(erin, c.id, 'шесть');
    expect(await unread(alice, c.id)).toBe(2);
    await api.post('/api/messages/delete', { messageId: m5.id }, erin.accessToken);
    expect(await unread(alice, c.id)).toBe(1);
    const after = await api.get(`/api/conversations/${c.id}/messages`, erin.accessToken);
    expect(after.body.messages.find((m: { id: string }) => m.id === m3.id).receipts).toEqual([
      { userId: alice.user.id, status: 'READ' },
    ]);
  });

  it('refuses receipts for unknown or foreign messages and changes nothing', async () => {
    const c = await direct(alice, bob);
    const m = await text(bob, c.id, 'секрет');
    const before = await unread(alice, c.id);
    const foreign = await api.post(
      '/api/messages/receipts',
      { messageIds: [m.id], status: 'READ' },
      stranger.accessToken,
    );
    expect(foreign.status).toBe(404);
    const mixed = await api.post(
      '/api/messages/receipts',
      { messageIds: [m.id, 'unknown'], status: 'READ' },
      alice.accessToken,
    );
    expect(mixed.status).toBe(404);
    expect(await unread(alice, c.id)).toBe(before);
    expect(
      (await api.post('/api/messages/receipts', { messageIds: [m.id], status: 'SEEN' }, alice.accessToken)).status,
    ).toBe(400);
    expect(
      (await api.post('/api/messages/receipts', { messageIds: [], status: 'READ' }, alice.accessToken)).status,
    ).toBe(400);
    const mr = await api.post('/api/messages/mark-conversation-read', { conversationId: c.id }, stranger.accessToken);
    expect(mr.status).toBe(404);
  });
});
