// Message actions over real HTTP and websockets on the real server (SQLite, or PostgreSQL with TEST_PG_URL):
// hiding for oneself, forwarding, pins, mentions, message info and any emoji as a reaction
// (server/messages/message-actions.routes.ts and the send, edit and list paths they touch).
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits';
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
  await befriend(api, bob, carol);
});
afterAll(() => srv.close());
afterEach(closeAll);

/** What a non-member's sockets must never hear of these actions. */
const NEW_EVENTS = ['message:new', 'message:notify', 'message:hidden', 'conversation:pins', 'message:edited'];

type Msg = {
  id: string;
  type: string;
  senderId: string;
  content: string;
  attachments: { url: string }[];
  forwardedFrom?: { userId: string; name: string } | null;
  mentions?: string[];
  system?: { kind: string; excerpt?: string | null } | null;
  reactions: { emoji: string; userIds: string[] }[];
};

const direct = async (a: TestUser, b: TestUser) => {
  const res = await api.post('/api/conversations/with', { userId: b.user.id }, a.accessToken);
  expect(res.status).toBe(200);
  return res.body.conversation.id as string;
};
const group = async (owner: TestUser, members: TestUser[], title = 'Группа') => {
  const res = await api.post(
    '/api/conversations',
    { participantIds: members.map((m) => m.user.id), title, isGroup: true },
    owner.accessToken,
  );
  expect(res.status).toBe(200);
  return res.body.conversation.id as string;
};
const send = async (u: TestUser, conversationId: string, content: string, extra: Record<string, unknown> = {}) => {
  const res = await api.post(
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content, ...extra },
    u.accessToken,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message as Msg;
};
const history = async (u: TestUser, conversationId: string) => {
  const res = await api.get(`/api/conversations/${conversationId}/messages?limit=200`, u.accessToken);
  expect(res.status).toBe(200);
  return res.body.messages as Msg[];
};
const entryOf = async (u: TestUser, conversationId: string) => {
  const res = await api.get('/api/conversations', u.accessToken);
  return (
    res.body.conversations as {
      conversation: { id: string; messages: Msg[] };
      unreadCount: number;
      unreadMentions?: number;
    }[]
  ).find((e) => e.conversation.id === conversationId);
};

describe('hiding for oneself', () => {
  it('hides own and others’ messages for the user alone, on every tab, and shows them again', async () => {
    const c = await direct(alice, bob);
    const mine = await send(alice, c, 'моё');
    const theirs = await send(bob, c, 'чужое');
    const aliceTab = await connect(srv.url, alice.accessToken);
    const bobTab = await connect(srv.url, bob.accessToken);
    const bobSeen = recorder(bobTab);
    const heard = next(aliceTab, 'message:hidden');
    const res = await api.post('/api/messages/hide', { messageIds: [mine.id, theirs.id] }, alice.accessToken);
    expect(res.status).toBe(200);
    expect(await heard).toEqual({
      conversationId: c,
      messageIds: expect.arrayContaining([mine.id, theirs.id]),
      hidden: true,
    });
    expect((await history(alice, c)).map((m) => m.id)).toEqual([]);
    expect((await history(bob, c)).map((m) => m.id)).toEqual([mine.id, theirs.id]);
    // The list's preview skips what the user hid.
    expect((await entryOf(alice, c))?.conversation.messages).toEqual([]);
    expect((await entryOf(bob, c))?.conversation.messages[0]?.id).toBe(theirs.id);
    await roundTrip(bobTab);
    expect(bobSeen.events()).not.toContain('message:hidden');
    // A closed device learns of it from the deletions it asks for.
    const since = new Date(Date.now() - 60_000).toISOString();
    const gone = await api.get(`/api/messages/deleted?since=${encodeURIComponent(since)}`, alice.accessToken);
    expect(gone.body.deleted.map((d: { id: string }) => d.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));

    const back = await api.post('/api/messages/hide', { messageIds: [theirs.id], on: false }, alice.accessToken);
    expect(back.status).toBe(200);
    expect((await history(alice, c)).map((m) => m.id)).toEqual([theirs.id]);
  });

  it('refuses messages of others’ conversations, unknown ids and bad batches, changing nothing', async () => {
    const c = await direct(alice, bob);
    const m = await send(alice, c, 'не для Евы');
    const cases: [TestUser, Record<string, unknown>, number][] = [
      [eve, { messageIds: [m.id] }, 404],
      [alice, { messageIds: [m.id, 'nope'] }, 404],
      [alice, { messageIds: [] }, 400],
      [alice, { messageIds: Array.from({ length: LIMITS.messageBatchMax + 1 }, (_, i) => `m${i}`) }, 400],
      [alice, { messageIds: [m.id], extra: true }, 400],
    ];
    for (const [u, body, status] of cases) {
      const res = await api.post('/api/messages/hide', body, u.accessToken);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    expect((await history(alice, c)).map((x) => x.id)).toContain(m.id);
  });
});

describe('forwarding', () => {
  it('copies messages in order to several chats as the forwarder’s, with the first author and the same uploads', async () => {
    const from = await direct(bob, alice);
    const toCarol = await direct(alice, carol);
    const trio = await group(alice, [bob, carol], 'Трое');
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png');
    const up = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${bob.accessToken}` },
    }).then((r) => r.json());
    const first = await send(bob, from, 'адрес');
    const picture = (
      await api.post(
        '/api/conversations/send',
        { conversationId: from, type: 'IMAGE', content: 'вид', attachments: [{ url: up.url, type: 'IMAGE' }] },
        bob.accessToken,
      )
    ).body.message as Msg;
    const carolTab = await connect(srv.url, carol.accessToken);
    const eveTab = await connect(srv.url, eve.accessToken);
    const eveSeen = recorder(eveTab);
    const arrived = next(carolTab, 'message:notify', (p: { message: Msg }) => p.message.content === 'вид');
    const res = await api.post(
      '/api/messages/forward',
      { messageIds: [picture.id, first.id], conversationIds: [toCarol, trio] },
      alice.accessToken,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messages).toHaveLength(4);
    expect((await arrived).message.forwardedFrom).toEqual({ userId: bob.user.id, name: bob.user.displayName });
    for (const c of [toCarol, trio]) {
      const page = (await history(carol, c)).filter((m) => m.forwardedFrom);
      expect(page.map((m) => m.content)).toEqual(['адрес', 'вид']);
      expect(page.every((m) => m.senderId === alice.user.id)).toBe(true);
      expect(page[1].attachments[0].url).toBe(picture.attachments[0].url);
    }
    // Kept when the original is deleted; a copy forwarded again keeps the first author.
    await api.post('/api/messages/delete', { messageId: first.id }, bob.accessToken);
    const copy = (await history(carol, toCarol)).find((m) => m.content === 'адрес') as Msg;
    expect(copy.forwardedFrom?.userId).toBe(bob.user.id);
    const again = await api.post(
      '/api/messages/forward',
      { messageIds: [copy.id], conversationIds: [trio] },
      carol.accessToken,
    );
    expect(again.body.messages[0].forwardedFrom).toEqual({ userId: bob.user.id, name: bob.user.displayName });
    await roundTrip(eveTab);
    expect(eveSeen.events().filter((e) => NEW_EVENTS.includes(e))).toEqual([]);
  });

  it('is refused from or to a conversation one is not in, for system entries, and past the limits', async () => {
    const mine = await direct(alice, bob);
    const theirs = await direct(bob, carol);
    const m = await send(alice, mine, 'раз');
    const other = await send(bob, theirs, 'чужое');
    const trio = await group(alice, [bob], 'Системная');
    const created = (await history(alice, trio))[0];
    const before = (await history(bob, theirs)).length;
    const cases: [Record<string, unknown>, number][] = [
      [{ messageIds: [other.id], conversationIds: [mine] }, 404],
      [{ messageIds: [m.id], conversationIds: [theirs] }, 404],
      [{ messageIds: [created.id], conversationIds: [mine] }, 400],
      [
        {
          messageIds: [m.id],
          conversationIds: Array.from({ length: LIMITS.forwardTargetsMax + 1 }, (_, i) => `c${i}`),
        },
        400,
      ],
      [
        { messageIds: Array.from({ length: LIMITS.messageBatchMax + 1 }, (_, i) => `m${i}`), conversationIds: [mine] },
        400,
      ],
    ];
    for (const [body, status] of cases) {
      const res = await api.post('/api/messages/forward', body, alice.accessToken);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    expect(await history(bob, theirs)).toHaveLength(before);
  });
});

describe('pins', () => {
  it('owners and admins pin in groups, both people in direct chats; members hear the list live', async () => {
    const g = await group(alice, [bob, carol], 'Дача');
    const rules = await send(alice, g, 'Правила: тишина после 23');
    const bobTab = await connect(srv.url, bob.accessToken);
    const eveTab = await connect(srv.url, eve.accessToken);
    const eveSeen = recorder(eveTab);
    const live = next(bobTab, 'conversation:pins');
    const res = await api.post('/api/messages/pin', { messageId: rules.id, on: true }, alice.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.pins.map((p: Msg) => p.id)).toEqual([rules.id]);
    expect((await live).pins.map((p: Msg) => p.id)).toEqual([rules.id]);
    const entry = (await history(bob, g)).at(-1) as Msg;
    expect(entry.system).toMatchObject({ kind: 'pinned', excerpt: 'Правила: тишина после 23' });
    // A plain member may not.
    const refused = await api.post('/api/messages/pin', { messageId: rules.id, on: false }, bob.accessToken);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/администратор/);
    // Not a member: 404, for pinning and for the list.
    expect((await api.post('/api/messages/pin', { messageId: rules.id, on: true }, eve.accessToken)).status).toBe(404);
    expect((await api.get(`/api/conversations/${g}/pins`, eve.accessToken)).status).toBe(404);
    expect((await api.get(`/api/conversations/${g}/pins`, carol.accessToken)).body.pins.map((p: Msg) => p.id)).toEqual([
      rules.id,
    ]);
    // Deleted for everyone: gone from the pins, and the members hear it.
    const shorter = next(bobTab, 'conversation:pins');
    await api.post('/api/messages/delete', { messageId: rules.id }, alice.accessToken);
    expect((await shorter).pins).toEqual([]);
    await roundTrip(eveTab);
    expect(eveSeen.events().filter((e) => NEW_EVENTS.includes(e))).toEqual([]);

    // A direct chat: either person.
    const d = await direct(alice, bob);
    const m = await send(alice, d, 'важное');
    expect((await api.post('/api/messages/pin', { messageId: m.id, on: true }, bob.accessToken)).status).toBe(200);
    const unpinned = await api.post('/api/messages/pin', { messageId: m.id, on: false }, alice.accessToken);
    expect(unpinned.body.pins).toEqual([]);
  });
});

describe('mentions', () => {
  it('stores members by id (others dropped), notifies through «Без звука», and the list counts them until read', async () => {
    const g = await group(alice, [bob, carol], 'Упоминания');
    await api.patch(`/api/conversations/${g}/settings`, { mutedUntil: 'forever' }, bob.accessToken);
    const m = await send(alice, g, '@bob посмотри', {
      mentions: [bob.user.id, eve.user.id, alice.user.id, bob.user.id],
    });
    expect(m.mentions).toEqual([bob.user.id]);
    expect((await history(carol, g)).find((x) => x.id === m.id)?.mentions).toEqual([bob.user.id]);
    expect((await entryOf(bob, g))?.unreadMentions).toBe(1);
    expect((await entryOf(carol, g))?.unreadMentions).toBeUndefined();
    await api.post('/api/messages/mark-conversation-read', { conversationId: g }, bob.accessToken);
    expect((await entryOf(bob, g))?.unreadMentions).toBeUndefined();

    // An edit replaces the mentions, and message:edited carries them.
    const carolTab = await connect(srv.url, carol.accessToken);
    const edited = next(carolTab, 'message:edited');
    const res = await api.post(
      '/api/messages/edit',
      { messageId: m.id, content: '@carol посмотри', mentions: [carol.user.id] },
      alice.accessToken,
    );
    expect(res.status).toBe(200);
    expect((await edited).mentions).toEqual([carol.user.id]);
    expect((await entryOf(carol, g))?.unreadMentions).toBe(1);
    const tooMany = await send(alice, g, 'x').then(() =>
      api.post(
        '/api/conversations/send',
        {
          conversationId: g,
          type: 'TEXT',
          content: 'много',
          mentions: Array.from({ length: LIMITS.mentionsMax + 1 }, () => bob.user.id),
        },
        alice.accessToken,
      ),
    );
    expect(tooMany.status).toBe(400);
  });
});

describe('message info', () => {
  it('lists who read one’s own message and when, and who has not; only for the sender', async () => {
    const g = await group(alice, [bob, carol], 'Кто прочитал');
    const m = await send(alice, g, 'прочтите');
    await api.post('/api/messages/mark-conversation-read', { conversationId: g }, bob.accessToken);
    const res = await api.get(`/api/messages/${m.id}/info`, alice.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.read).toEqual([{ userId: bob.user.id, readAt: expect.any(String) }]);
    expect(res.body.unread).toEqual([carol.user.id]);
    const notMine = await api.get(`/api/messages/${m.id}/info`, bob.accessToken);
    expect(notMine.status).toBe(403);
    expect(notMine.body.message).toBe('Информация доступна только о своих сообщениях');
    expect((await api.get(`/api/messages/${m.id}/info`, eve.accessToken)).status).toBe(404);
  });
});

describe('any emoji as a reaction', () => {
  it('accepts one emoji of any kind (skin tones, ZWJ sequences, flags) and orders the quick ones first', async () => {
    const c = await direct(alice, bob);
    const m = await send(alice, c, 'реагируйте');
    for (const emoji of ['🔥', '👍🏽', '👨‍👩‍👧', '🇷🇺', '👍']) {
      const res = await api.post('/api/messages/react', { messageId: m.id, emoji, on: true }, bob.accessToken);
      expect(res.status, emoji).toBe(200);
    }
    const reactions = (await history(alice, c)).find((x) => x.id === m.id)?.reactions.map((r) => r.emoji);
    expect(reactions).toEqual(['👍', '🔥', '👍🏽', '👨‍👩‍👧', '🇷🇺']);
    for (const emoji of ['ab', '1', '<b>', '👍👍', '👍 ']) {
      const res = await api.post('/api/messages/react', { messageId: m.id, emoji, on: true }, bob.accessToken);
      expect(res.status, emoji).toBe(400);
      expect(res.body.message).toMatch(/Реакция — один эмодзи/);
    }
  });
});
