// «Избранное» and scheduled sends (docs/behaviour.md §10.31, §10.32) against the real server: the chat with oneself
// in every list, notes and forwards into it; «Отправить позже» sent by the server on its injected clock, across a
// restart and by one of two processes only; reminders into «Избранное» with a push; who may schedule what.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { type PushService, startPushService, subscriberKeys } from './push-service';
import { redisAvailable, redisUrl } from './redis-probe';
import { type Api, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

const HOUR = 3600_000;
const withRedis = await redisAvailable();
/** Tokens that outlive the hours these tests move the clocks by. */
const LONG = { accessTokenTtlSec: 7 * 24 * 3600 };
type Msg = {
  id: string;
  content: string;
  senderId: string;
  reminderOf?: { conversationId: string; messageId: string };
};

async function history(api: Api, u: TestUser, conversationId: string): Promise<Msg[]> {
  const r = await api.get(`/api/conversations/${conversationId}/messages`, u.accessToken);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.messages;
}

async function savedOf(api: Api, u: TestUser): Promise<string> {
  const list = (await api.get('/api/conversations', u.accessToken)).body.conversations;
  return list[0].conversation.id;
}

describe('«Избранное» and scheduled sends on one server', () => {
  let srv: TestServer;
  let api: Api;
  let clock: ManualClock;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let direct: string;
  let ps: PushService;

  beforeAll(async () => {
    clock = manualClock();
    srv = await startTestServer({ ...LONG, pushAllowLoopback: true }, { clock });
    api = client(srv.url);
    ps = await startPushService();
    [alice, bob, carol] = await Promise.all([api.user('alice'), api.user('bob'), api.user('carol')]);
    await befriend(api, alice, bob);
    await befriend(api, alice, carol);
    direct = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation
      .id;
    await api.post(
      '/api/conversations/send',
      { conversationId: direct, type: 'TEXT', content: 'привет' },
      bob.accessToken,
    );
  });
  afterAll(async () => {
    closeAll();
    await srv?.close();
    await ps?.close();
  });

  const at = (ms: number) => new Date(clock.now() + ms).toISOString();
  const schedule = (u: TestUser, conversationId: string, content: string, sendAt: string) =>
    api.post('/api/scheduled', { conversationId, content, sendAt }, u.accessToken);
  const listScheduled = async (u: TestUser, conversationId: string) =>
    (await api.get(`/api/conversations/${conversationId}/scheduled`, u.accessToken)).body.items as {
      id: string;
      status: string;
      failure: string | null;
      content: string;
    }[];

  it('gives everyone «Избранное» first in the list, with only themselves in it', async () => {
    const list = (await api.get('/api/conversations', alice.accessToken)).body.conversations;
    const saved = list[0].conversation;
    expect(saved.saved).toBe(true);
    expect(saved.isGroup).toBe(false);
    expect(saved.participants.map((p: { user: { id: string } }) => p.user.id)).toEqual([alice.user.id]);
    // Above the direct chat with a newer message.
    expect(list.map((e: { conversation: { id: string } }) => e.conversation.id)).toContain(direct);
    expect(list.filter((e: { conversation: { saved?: boolean } }) => e.conversation.saved)).toHaveLength(1);
  });

  it('takes notes and forwards, finds them in search, and cannot be deleted or left', async () => {
    const saved = await savedOf(api, alice);
    const note = await api.post(
      '/api/conversations/send',
      { conversationId: saved, type: 'TEXT', content: 'купить молоко' },
      alice.accessToken,
    );
    expect(note.status).toBe(200);
    const original = (await history(api, alice, direct))[0] as Msg;
    const fwd = await api.post(
      '/api/messages/forward',
      { messageIds: [original.id], conversationIds: [saved] },
      alice.accessToken,
    );
    expect(fwd.status, JSON.stringify(fwd.body)).toBe(200);
    expect((await history(api, alice, saved)).map((m) => m.content)).toEqual(['купить молоко', 'привет']);
    const found = await api.get('/api/search?q=молоко', alice.accessToken);
    expect(found.body.results.map((r: { conversationId: string }) => r.conversationId)).toEqual([saved]);
    // Nobody else reads it.
    expect((await api.get(`/api/conversations/${saved}/messages`, bob.accessToken)).status).toBe(404);
    const hide = await api.post('/api/conversations/hide', { conversationId: saved }, alice.accessToken);
    expect(hide.status).toBe(400);
    expect(hide.body.message).toBe('Избранное нельзя удалить или покинуть');
    expect((await api.post('/api/conversations/leave', { conversationId: saved }, alice.accessToken)).status).toBe(400);
    // Still first, and nothing unread in a chat with oneself.
    const first = (await api.get('/api/conversations', alice.accessToken)).body.conversations[0];
    expect(first.conversation.id).toBe(saved);
    expect(first.unreadCount).toBe(0);
  });

  it('makes «Избранное» on the first list read for an account that has none', async () => {
    const dora = await api.user('dora');
    const id = `saved-${dora.user.id}`;
    const { db } = srv.server.ctx;
    await db.deleteFrom('conversation_members').where('conversation_id', '=', id).execute();
    await db.deleteFrom('conversations').where('id', '=', id).execute();
    // A fresh process knows nothing of dora yet: the same lazy path a restarted server takes.
    const other = await startTestServer({ dataDir: srv.config.dataDir, databaseUrl: srv.config.databaseUrl });
    try {
      const list = (await client(other.url).get('/api/conversations', dora.accessToken)).body.conversations;
      expect(
        list.map((e: { conversation: { id: string; saved?: boolean } }) => [e.conversation.id, e.conversation.saved]),
      ).toEqual([[id, true]]);
    } finally {
      await other.close();
    }
  });

  it('refuses a time past, over a year ahead, an empty text and a chat one is not in, in Russian', async () => {
    const past = await schedule(alice, direct, 'поздно', at(-60_000));
    expect([past.status, past.body.message]).toEqual([400, 'Это время уже прошло: выберите время в будущем']);
    const century = await schedule(alice, direct, 'через век', at(100 * 365 * 24 * HOUR));
    expect([century.status, century.body.message]).toEqual([400, 'Запланировать можно не дальше чем на год вперёд']);
    const empty = await schedule(alice, direct, '   ', at(HOUR));
    expect([empty.status, empty.body.message]).toEqual([400, 'content: Сообщение не может быть пустым']);
    const garbage = await schedule(alice, direct, 'когда-нибудь', 'завтра');
    expect([garbage.status, garbage.body.message]).toEqual([400, 'sendAt: Укажите дату и время']);
    // carol is not in alice and bob's chat: as if it did not exist.
    const stranger = await schedule(carol, direct, 'влезу', at(HOUR));
    expect(stranger.status).toBe(404);
    expect((await api.get(`/api/conversations/${direct}/scheduled`, carol.accessToken)).status).toBe(404);
    // Nor may she touch alice's item.
    const mine = await schedule(alice, direct, 'моё', at(HOUR));
    expect(mine.status).toBe(200);
    const id = mine.body.item.id;
    expect((await api.call('DELETE', `/api/scheduled/${id}`, { token: carol.accessToken })).status).toBe(404);
    expect((await api.post(`/api/scheduled/${id}/send`, {}, carol.accessToken)).status).toBe(404);
    expect((await api.patch(`/api/scheduled/${id}`, { content: 'чужое' }, carol.accessToken)).status).toBe(404);
    expect((await api.call('DELETE', `/api/scheduled/${id}`, { token: alice.accessToken })).status).toBe(200);
    expect(await listScheduled(alice, direct)).toEqual([]);
  });

  it('sends at its time on the server clock, once, with no device connected', async () => {
    const r = await schedule(alice, direct, 'в девять', at(HOUR));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await listScheduled(alice, direct)).map((i) => [i.content, i.status])).toEqual([['в девять', 'pending']]);
    clock.advance(HOUR - 1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await history(api, bob, direct)).some((m) => m.content === 'в девять')).toBe(false);
    clock.advance(2_000);
    await vi.waitFor(async () =>
      expect((await history(api, bob, direct)).filter((m) => m.content === 'в девять')).toHaveLength(1),
    );
    const sent = (await history(api, bob, direct)).find((m) => m.content === 'в девять') as Msg;
    expect(sent.senderId).toBe(alice.user.id);
    expect(await listScheduled(alice, direct)).toEqual([]);
    clock.advance(HOUR);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await history(api, bob, direct)).filter((m) => m.content === 'в девять')).toHaveLength(1);
  });

  it('edits, sends now and deletes a waiting message', async () => {
    const id = (await schedule(alice, direct, 'черновик', at(2 * HOUR))).body.item.id;
    const edited = await api.patch(
      `/api/scheduled/${id}`,
      { content: 'чистовик', sendAt: at(3 * HOUR) },
      alice.accessToken,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.item.content).toBe('чистовик');
    const now = await api.post(`/api/scheduled/${id}/send`, {}, alice.accessToken);
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    expect(now.body.message.content).toBe('чистовик');
    expect((await api.post(`/api/scheduled/${id}/send`, {}, alice.accessToken)).status).toBe(409);
    clock.advance(4 * HOUR);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await history(api, bob, direct)).filter((m) => m.content === 'чистовик')).toHaveLength(1);
  });

  it('does not send for a member removed before the time, and says so in «Запланированные»', async () => {
    const group = (
      await api.post(
        '/api/conversations',
        { participantIds: [bob.user.id, carol.user.id], isGroup: true, title: 'Трое' },
        alice.accessToken,
      )
    ).body.conversation.id;
    expect((await schedule(carol, group, 'я ещё здесь', at(HOUR))).status).toBe(200);
    const removed = await api.post(
      '/api/conversations/members/remove',
      { conversationId: group, userId: carol.user.id },
      alice.accessToken,
    );
    expect(removed.status).toBe(200);
    clock.advance(HOUR + 1_000);
    await vi.waitFor(async () => {
      const row = await srv.server.ctx.db
        .selectFrom('scheduled_messages')
        .select(['status', 'failure'])
        .where('user_id', '=', carol.user.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'failed', failure: 'Не отправлено: вы больше не участник этой беседы' });
    });
    expect((await history(api, alice, group)).some((m) => m.content === 'я ещё здесь')).toBe(false);
  });

  it('reminds in «Избранное» at the time, quoting and linking the message, and pushes it', async () => {
    const sub = subscriberKeys();
    expect(
      (
        await api.post(
          '/api/push/subscribe',
          { endpoint: `${ps.url}/push/alice`, keys: sub.keys, showText: true },
          alice.accessToken,
        )
      ).status,
    ).toBe(200);
    const original = (await history(api, alice, direct)).find((m) => m.content === 'привет') as Msg;
    const r = await api.post(
      '/api/reminders',
      { messageId: original.id, remindAt: at(20 * 60_000) },
      alice.accessToken,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const saved = await savedOf(api, alice);
    expect(r.body.item).toMatchObject({ kind: 'reminder', conversationId: saved, sourceMessageId: original.id });
    // Not a member of where the message is: as if it did not exist.
    expect(
      (await api.post('/api/reminders', { messageId: original.id, remindAt: at(HOUR) }, carol.accessToken)).status,
    ).toBe(404);
    const before = ps.requests.length;
    clock.advance(20 * 60_000 + 1_000);
    await vi.waitFor(async () => {
      const notes = (await history(api, alice, saved)).filter((m) => m.reminderOf);
      expect(notes.map((m) => [m.content, m.reminderOf])).toEqual([
        ['Напоминание: привет', { conversationId: direct, messageId: original.id }],
      ]);
    });
    await vi.waitFor(() => expect(ps.requests.length).toBe(before + 1), { timeout: 5_000 });
  });

  it('sends nothing for a deleted account and empties its «Избранное»', async () => {
    const erin = await api.user('erin');
    await befriend(api, erin, bob);
    const chat = (await api.post('/api/conversations/with', { userId: bob.user.id }, erin.accessToken)).body
      .conversation.id;
    const saved = await savedOf(api, erin);
    await api.post(
      '/api/conversations/send',
      { conversationId: saved, type: 'TEXT', content: 'пароль от сейфа' },
      erin.accessToken,
    );
    expect((await schedule(erin, chat, 'от ушедшей', at(HOUR))).status).toBe(200);
    expect((await api.post('/api/auth/account/delete', { password: erin.password }, erin.accessToken)).status).toBe(
      200,
    );
    const { db } = srv.server.ctx;
    expect(
      await db.selectFrom('scheduled_messages').select('id').where('user_id', '=', erin.user.id).execute(),
    ).toEqual([]);
    const notes = await db
      .selectFrom('messages')
      .select(['content', 'deleted_at'])
      .where('conversation_id', '=', saved)
      .execute();
    expect(notes.map((n) => [n.content, n.deleted_at !== null])).toEqual([['', true]]);
    clock.advance(HOUR + 1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await history(api, bob, chat)).some((m) => m.content === 'от ушедшей')).toBe(false);
  });

  it('tells an open tab of the reminder', async () => {
    const tab = await connect(srv.url, alice.accessToken);
    const original = (await history(api, alice, direct)).find((m) => m.content === 'привет') as Msg;
    await api.post('/api/reminders', { messageId: original.id, remindAt: at(HOUR) }, alice.accessToken);
    const heard = next(tab, 'message:notify', (p: { message: Msg }) => Boolean(p.message.reminderOf));
    clock.advance(HOUR + 1_000);
    expect((await heard).message.content).toBe('Напоминание: привет');
    tab.disconnect();
  });
});

describe('scheduled sends across restarts and processes', () => {
  let holder: TestServer;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let direct: string;
  const start = Date.now();

  beforeAll(async () => {
    // Owns the database for the suite; its own clock is the system's, so it sends nothing of the hours ahead.
    holder = await startTestServer(LONG);
    api = client(holder.url);
    [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
    await befriend(api, alice, bob);
    direct = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation
      .id;
  });
  afterAll(async () => {
    await holder?.close();
  });

  const sharing = (clock: ManualClock, extra: { redisUrl?: string } = {}) =>
    startTestServer(
      { ...LONG, dataDir: holder.config.dataDir, databaseUrl: holder.config.databaseUrl, ...extra },
      { clock },
    );
  const copies = async (content: string) =>
    (await history(api, bob, direct)).filter((m) => m.content === content).length;

  it('sends what fell due while the server was stopped once it starts again, once', async () => {
    const first = await sharing(manualClock(start));
    const r = await client(first.url).post(
      '/api/scheduled',
      { conversationId: direct, content: 'после перезапуска', sendAt: new Date(start + HOUR).toISOString() },
      alice.accessToken,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await first.close();
    expect(await copies('после перезапуска')).toBe(0);
    // Two processes come up at once, both late: one of them sends.
    const [a, b] = await Promise.all([sharing(manualClock(start + 2 * HOUR)), sharing(manualClock(start + 2 * HOUR))]);
    try {
      await vi.waitFor(async () => expect(await copies('после перезапуска')).toBe(1));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await copies('после перезапуска')).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('takes over an item whose sender died while holding it, without sending it twice', async () => {
    const one = await sharing(manualClock(start));
    try {
      const id = (
        await client(one.url).post(
          '/api/scheduled',
          { conversationId: direct, content: 'подхвачено', sendAt: new Date(start + HOUR).toISOString() },
          alice.accessToken,
        )
      ).body.item.id;
      // A process took it and died before marking it sent (the message itself may or may not have been written).
      await one.server.ctx.db
        .updateTable('scheduled_messages')
        .set({ status: 'sending', claimed_at: new Date(start + HOUR).toISOString() })
        .where('id', '=', id)
        .execute();
      const clock = manualClock(start + HOUR + 10_000);
      const late = await sharing(clock);
      try {
        clock.advance(30_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
        // Still within the lease: not taken yet.
        expect(await copies('подхвачено')).toBe(0);
        clock.advance(60_000);
        await vi.waitFor(async () => expect(await copies('подхвачено')).toBe(1));
      } finally {
        await late.close();
      }
    } finally {
      await one.close();
    }
  });

  describe.skipIf(!withRedis)('behind Redis', () => {
    it('is sent by one of two processes only', async () => {
      const c1 = manualClock(start);
      const c2 = manualClock(start);
      const [a, b] = await Promise.all([sharing(c1, { redisUrl }), sharing(c2, { redisUrl })]);
      try {
        const contents = ['раз', 'два', 'три', 'четыре', 'пять'];
        for (const [i, content] of contents.entries()) {
          const via = client((i % 2 ? a : b).url);
          const r = await via.post(
            '/api/scheduled',
            { conversationId: direct, content, sendAt: new Date(start + HOUR + i).toISOString() },
            alice.accessToken,
          );
          expect(r.status).toBe(200);
        }
        c1.advance(HOUR + 1_000);
        c2.advance(HOUR + 1_000);
        await vi.waitFor(async () => {
          for (const c of contents) expect(await copies(c)).toBe(1);
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        for (const c of contents) expect(await copies(c)).toBe(1);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  });
});
