// Read cursors and who hears of reads (server/messages/read-cursors.ts, receipt-announcer.ts), typing's throttle
// (server/realtime/typing-relay.ts) and the cursor migration (server/db/migrations/006_read_cursors.ts), against
// the real server over HTTP and websockets, on SQLite and (TEST_PG_URL) PostgreSQL.
import { Migrator } from 'kysely';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TIMINGS } from '../../src/contract/limits';
import { migrations } from '../../server/db/migrations';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { type Api, ack, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let group: string;
let clock: ManualClock;

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({ redisUrl: process.env.TEST_REDIS_URL ?? null }, { clock });
  api = client(srv.url);
  [alice, bob, carol] = await Promise.all([api.user('alice'), api.user('bob'), api.user('carol')]);
  await befriend(api, alice, bob);
  await befriend(api, alice, carol);
  group = (
    await api.post(
      '/api/conversations',
      { participantIds: [bob.user.id, carol.user.id], title: 'Трое', isGroup: true },
      alice.accessToken,
    )
  ).body.conversation.id;
});
afterEach(() => {
  closeAll();
  // Every announcement window and typing interval a test opened runs out before the next test.
  clock.advance(10_000);
});
afterAll(() => srv.close());

const send = async (u: TestUser, conversationId: string, content: string): Promise<string> => {
  const res = await api.post('/api/conversations/send', { conversationId, type: 'TEXT', content }, u.accessToken);
  expect(res.status).toBe(200);
  return res.body.message.id;
};
const read = async (u: TestUser, messageIds: string[], socket?: Socket) => {
  const res = await api.post(
    '/api/messages/receipts',
    { messageIds, status: 'READ', ...(socket?.id ? { socketId: socket.id } : {}) },
    u.accessToken,
  );
  expect(res.status).toBe(200);
};
const receiptsIn = (seen: { event: string; payload: unknown }[]) =>
  seen.filter((s) => s.event === 'receipts:update').map((s) => s.payload as { userId: string; messageIds: string[] });
const unread = async (u: TestUser, conversationId: string): Promise<number> => {
  const res = await api.get('/api/conversations', u.accessToken);
  return res.body.conversations.find((e: { conversation: { id: string } }) => e.conversation.id === conversationId)
    .unreadCount;
};
const receiptsOf = async (u: TestUser, conversationId: string, messageId: string) => {
  const page = await api.get(`/api/conversations/${conversationId}/messages?limit=200`, u.accessToken);
  return page.body.messages.find((m: { id: string }) => m.id === messageId).receipts as { userId: string }[];
};

describe('receipts:update goes to those who show it', () => {
  it('tells the sender once any one member reads (its ✓), the reader’s other tabs, and nobody else', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const bReading = await connect(srv.url, bob.accessToken);
    const bOther = await connect(srv.url, bob.accessToken);
    const c = await connect(srv.url, carol.accessToken);
    for (const s of [a, bReading, c]) expect(await ack(s, 'conversation:join', group)).toEqual({ ok: true });
    const aSeen = recorder(a);
    const readingSeen = recorder(bReading);
    const cSeen = recorder(c);
    const m1 = await send(alice, group, 'прочтите');

    const atAlice = next(a, 'receipts:update');
    const atBobsOtherTab = next(bOther, 'receipts:update');
    await read(bob, [m1], bReading);
    const expected = { conversationId: group, userId: bob.user.id, messageIds: [m1], status: 'READ' };
    expect(await atAlice).toEqual(expected);
    expect(await atBobsOtherTab).toEqual(expected);
    clock.advance(TIMINGS.receiptAnnounceMs);
    await Promise.all([a, bReading, c].map(roundTrip));
    // The third member shows nothing for it, and the tab that read knows already.
    expect(receiptsIn(cSeen.seen)).toEqual([]);
    expect(receiptsIn(readingSeen.seen)).toEqual([]);

    // A second reader changes nothing the sender shows: only the reader's own tabs hear of it.
    await read(carol, [m1]);
    clock.advance(TIMINGS.receiptAnnounceMs);
    await Promise.all([a, bReading, c].map(roundTrip));
    expect(receiptsIn(aSeen.seen)).toEqual([
      { conversationId: group, userId: bob.user.id, messageIds: [m1], status: 'READ' },
    ]);
    expect(receiptsIn(cSeen.seen)).toEqual([
      { conversationId: group, userId: carol.user.id, messageIds: [m1], status: 'READ' },
    ]);
    expect(receiptsIn(readingSeen.seen)).toEqual([]);
    // The API still lists every reader of the message.
    expect((await receiptsOf(alice, group, m1)).map((r) => r.userId).sort()).toEqual(
      [bob.user.id, carol.user.id].sort(),
    );
  });

  it('gathers what readers report for one conversation within the window into one frame per sender and reader', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const [m2, m3, m4] = [
      await send(alice, group, 'два'),
      await send(alice, group, 'три'),
      await send(alice, group, 'четыре'),
    ];
    const first = next(a, 'receipts:update');
    await read(bob, [m2]);
    expect((await first).messageIds).toEqual([m2]);
    const aSeen = recorder(a);
    // Within the window that first frame opened: two more reads by bob, one by carol of what bob read.
    await read(bob, [m3]);
    await read(carol, [m3]);
    await read(bob, [m4]);
    await roundTrip(a);
    expect(receiptsIn(aSeen.seen)).toEqual([]);
    clock.advance(TIMINGS.receiptAnnounceMs);
    await roundTrip(a);
    expect(receiptsIn(aSeen.seen)).toEqual([
      { conversationId: group, userId: bob.user.id, messageIds: [m3, m4], status: 'READ' },
    ]);
  });

  it('tells the senders when a member marks the whole conversation read', async () => {
    const b = await connect(srv.url, bob.accessToken);
    const a = await connect(srv.url, alice.accessToken);
    const fromBob = await send(bob, group, 'от Боба');
    const fromAlice = await send(alice, group, 'от Алисы');
    const atBob = next(b, 'receipts:update');
    const atAlice = next(a, 'receipts:update');
    const res = await api.post('/api/messages/mark-conversation-read', { conversationId: group }, carol.accessToken);
    expect(res.status).toBe(200);
    expect((await atBob).messageIds).toContain(fromBob);
    expect((await atAlice).messageIds).toContain(fromAlice);
    expect(await unread(carol, group)).toBe(0);
  });
});

describe('unread counts from the cursor', () => {
  it('count every visible message of others after the cursor; mark-read and receipts move it forward only', async () => {
    const dan = await api.user('dan');
    await befriend(api, alice, dan);
    const c = (await api.post('/api/conversations/with', { userId: dan.user.id }, alice.accessToken)).body.conversation
      .id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await send(dan, c, `сообщение ${i}`));
    await send(alice, c, 'моё');
    expect(await unread(alice, c)).toBe(5);
    await read(alice, [ids[3] as string]);
    expect(await unread(alice, c)).toBe(1);
    // An older receipt does not move the cursor back.
    await read(alice, [ids[0] as string]);
    expect(await unread(alice, c)).toBe(1);
    expect(await receiptsOf(dan, c, ids[4] as string)).toEqual([]);
    expect(await receiptsOf(dan, c, ids[2] as string)).toEqual([{ userId: alice.user.id, status: 'READ' }]);
    await api.post('/api/messages/mark-conversation-read', { conversationId: c }, alice.accessToken);
    expect(await unread(alice, c)).toBe(0);
    // Dan never read alice's message.
    expect(await unread(dan, c)).toBe(1);
  });

  it('one batch names messages of several conversations, own and deleted ones among them', async () => {
    const erin = await api.user('erin');
    await befriend(api, alice, erin);
    const direct = (await api.post('/api/conversations/with', { userId: erin.user.id }, alice.accessToken)).body
      .conversation.id;
    const inDirect = [await send(erin, direct, 'раз'), await send(erin, direct, 'два')];
    const own = await send(alice, direct, 'моё');
    const inGroup = [await send(bob, group, 'в группе'), await send(carol, group, 'и ещё')];
    const gone = await send(carol, group, 'удалю');
    expect((await api.post('/api/messages/delete', { messageId: gone }, carol.accessToken)).status).toBe(200);
    expect(await unread(alice, group)).toBeGreaterThanOrEqual(2);
    expect(await unread(alice, direct)).toBe(2);
    await read(alice, [inDirect[1] as string, own, inGroup[0] as string, gone]);
    // Each conversation's cursor went to the newest of the others' visible messages named in it.
    expect(await unread(alice, direct)).toBe(0);
    expect(await unread(alice, group)).toBe(1);
    expect(await receiptsOf(erin, direct, inDirect[0] as string)).toEqual([{ userId: alice.user.id, status: 'READ' }]);
    expect(await receiptsOf(bob, group, inGroup[0] as string)).toContainEqual({
      userId: alice.user.id,
      status: 'READ',
    });
    expect(await receiptsOf(carol, group, inGroup[1] as string)).not.toContainEqual({
      userId: alice.user.id,
      status: 'READ',
    });
  });
});

describe('typing throttle', () => {
  it('relays typing at most once per interval however often a client sends it; a send ends it without a typing-off', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const b = await connect(srv.url, bob.accessToken);
    expect(await ack(b, 'conversation:join', group)).toEqual({ ok: true });
    const bSeen = recorder(b);
    const typingAtBob = () =>
      bSeen.seen.filter((s) => s.event === 'conversation:typing').map((s) => (s.payload as { typing: boolean }).typing);
    for (let i = 0; i < 12; i++) await ack(a, 'conversation:typing', { conversationId: group, typing: true });
    await roundTrip(b);
    expect(typingAtBob()).toEqual([true]);
    // The message tells the others the typing is over (clients clear the typer); the typing-off after it is not relayed.
    await send(alice, group, 'готово');
    await ack(a, 'conversation:typing', { conversationId: group, typing: false });
    clock.advance(TIMINGS.typingIdleMs);
    await roundTrip(b);
    expect(typingAtBob()).toEqual([true]);
    // The next message's typing is relayed again.
    await ack(a, 'conversation:typing', { conversationId: group, typing: true });
    await roundTrip(b);
    expect(typingAtBob()).toEqual([true, true]);
  });
});

describe('migration 006: cursors filled from the receipts stored before', () => {
  it('puts each member’s cursor at the newest message it had a receipt for', async () => {
    const eve = await api.user('eve');
    await befriend(api, alice, eve);
    const c = (await api.post('/api/conversations/with', { userId: eve.user.id }, alice.accessToken)).body.conversation
      .id;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await send(eve, c, `до миграции ${i}`));
    const mine = await send(alice, c, 'ответ');
    const { db } = srv.server.ctx;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    // Back to the schema before cursors, with receipts as they were stored then: alice read the first two.
    expect((await migrator.migrateTo('003_messaging_indexes')).error).toBeUndefined();
    const now = new Date().toISOString();
    await db
      .insertInto('receipts')
      .values(
        ids.slice(0, 2).map((id) => ({
          message_id: id,
          user_id: alice.user.id,
          conversation_id: c,
          status: 'READ',
          created_at: now,
        })),
      )
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await unread(alice, c)).toBe(2);
    expect(await unread(eve, c)).toBe(1);
    expect(await receiptsOf(eve, c, ids[1] as string)).toEqual([{ userId: alice.user.id, status: 'READ' }]);
    expect(await receiptsOf(eve, c, ids[2] as string)).toEqual([]);
    expect(await receiptsOf(alice, c, mine)).toEqual([]);
  });
});
