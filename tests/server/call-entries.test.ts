// Calls as entries of the conversation, over real sockets: each outcome (answered with its duration, declined,
// missed, cancelled) is written once as a CALL message that both sides receive live, missed and cancelled calls
// count as unread for the callee, and racing signals from several tabs (or two server processes sharing one
// database and Redis) still log a call once.
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TIMINGS } from '../../src/contract/limits';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { type Api, ack, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

const redis = await redisAvailable();
let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let ab: string;

beforeAll(async () => {
  // With Redis, the second process of the last suite shares this one's events.
  srv = await startTestServer({ redisUrl: redis ? redisUrl : null });
  api = client(srv.url);
  [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
  await befriend(api, alice, bob);
  ab = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation.id;
});
afterEach(() => closeAll());
afterAll(() => srv.close());

interface Entry {
  id: string;
  type: string;
  senderId: string;
  call: { kind: string; outcome: string; callerId: string; durationSec: number };
}
const callEntries = async (a: Api = api, conv = ab) =>
  ((await a.get(`/api/conversations/${conv}/messages?limit=200`, bob.accessToken)).body.messages as Entry[]).filter(
    (m) => m.type === 'CALL',
  );
const unread = async (u: TestUser, a: Api = api, conv = ab) =>
  (
    (await a.get('/api/conversations', u.accessToken)).body.conversations as {
      conversation: { id: string };
      unreadCount: number;
    }[]
  ).find((c) => c.conversation.id === conv)?.unreadCount;

/** Alice's tab joined to the conversation (gets message:new) and Bob's tab outside it (gets message:notify). */
async function sides(url = srv.url): Promise<{ a: Socket; b: Socket }> {
  const a = await connect(url, alice.accessToken);
  expect(await ack(a, 'conversation:join', ab)).toEqual({ ok: true });
  const b = await connect(url, bob.accessToken);
  return { a, b };
}

async function ring(a: Socket, b: Socket, video: boolean, others: Socket[] = []) {
  const rang = Promise.all([b, ...others].map((s) => next(s, 'call:incoming')));
  expect(await ack(a, 'call:invite', { conversationId: ab, video })).toEqual({ ok: true });
  await rang;
}

/** Pretends the call started `ms` ago (the ring timeout is 25 s). */
const backdate = (ms: number) =>
  srv.server.ctx.db
    .updateTable('calls')
    .set({ started_at: new Date(Date.now() - ms).toISOString() })
    .where('conversation_id', '=', ab)
    .where('outcome', 'is', null)
    .execute();

/** Pretends the open call was answered `ms` ago. */
const answeredAgo = (ms: number) =>
  srv.server.ctx.db
    .updateTable('calls')
    .set({ answered_at: new Date(Date.now() - ms).toISOString() })
    .where('conversation_id', '=', ab)
    .where('outcome', 'is', null)
    .execute();

describe('call entries', () => {
  it('an answered call is logged with its duration when it ends; both sides get it live and it is read by the callee', async () => {
    const { a, b } = await sides();
    await ring(a, b, true);
    await ack(b, 'call:accept', { conversationId: ab, video: true });
    await answeredAgo(1200);
    const before = await callEntries();
    const live = next(a, 'message:new', (p) => p.message.type === 'CALL');
    const notify = next(b, 'message:notify', (p) => p.message.type === 'CALL');
    await ack(a, 'call:end', { conversationId: ab });
    const [got, notified] = await Promise.all([live, notify]);
    expect(got.message).toMatchObject({
      type: 'CALL',
      senderId: alice.user.id,
      call: { kind: 'video', outcome: 'answered', callerId: alice.user.id },
    });
    expect(got.message.call.durationSec).toBeGreaterThanOrEqual(1);
    expect(notified.message.id).toBe(got.message.id);
    // Bob hangs up too (his tab's own end): still one entry. (A call signal is acknowledged once it is logged.)
    await ack(b, 'call:end', { conversationId: ab });
    const after = await callEntries();
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)).toMatchObject({ id: got.message.id, call: { outcome: 'answered' } });
    expect(await unread(bob)).toBe(0);
  });

  it('a declined call reads «declined», is not unread for the callee', async () => {
    const { a, b } = await sides();
    await ring(a, b, false);
    const live = next(a, 'message:new', (p) => p.message.type === 'CALL');
    await ack(b, 'call:decline', { conversationId: ab });
    expect((await live).message.call).toEqual({
      kind: 'audio',
      outcome: 'declined',
      callerId: alice.user.id,
      durationSec: 0,
    });
    expect(await unread(bob)).toBe(0);
  });

  it('a declined call does not mark older unread messages read: the callee’s read position cannot skip them', async () => {
    await api.post('/api/messages/mark-conversation-read', { conversationId: ab }, bob.accessToken);
    const sent = await api.post(
      '/api/conversations/send',
      { conversationId: ab, type: 'TEXT', content: 'Перезвони, как сможешь' },
      alice.accessToken,
    );
    expect(sent.status).toBe(200);
    const { a, b } = await sides();
    await ring(a, b, false);
    const live = next(a, 'message:new', (p) => p.message.type === 'CALL');
    await ack(b, 'call:decline', { conversationId: ab });
    expect((await live).message.receipts).toEqual([]);
    // The text stays unread, and so does the entry after it (a read position covers all or nothing before it).
    expect(await unread(bob)).toBe(2);
    await api.post('/api/messages/mark-conversation-read', { conversationId: ab }, bob.accessToken);
    expect(await unread(bob)).toBe(0);
  });

  it('a call the caller hangs up before an answer is cancelled, and unread for the callee', async () => {
    const { a, b } = await sides();
    const before = await unread(bob);
    await ring(a, b, false);
    const notify = next(b, 'message:notify', (p) => p.message.type === 'CALL');
    await ack(a, 'call:end', { conversationId: ab });
    expect((await notify).message.call).toMatchObject({ outcome: 'cancelled', durationSec: 0 });
    expect(await unread(bob)).toBe((before ?? 0) + 1);
  });

  it('a call nobody answers within the ring time is missed — from the callee tab’s timeout or the caller’s — and unread for the callee', async () => {
    for (const whoTimesOut of ['callee', 'caller'] as const) {
      const { a, b } = await sides();
      const before = await unread(bob);
      await ring(a, b, true);
      await backdate(TIMINGS.ringTimeoutMs);
      const live = next(a, 'message:new', (p) => p.message.type === 'CALL');
      // The caller giving up ends the call for the callee's tabs, which stop ringing.
      const ended = whoTimesOut === 'caller' ? next(b, 'call:ended') : null;
      if (whoTimesOut === 'callee') await ack(b, 'call:decline', { conversationId: ab });
      else await ack(a, 'call:end', { conversationId: ab });
      if (ended) expect(await ended).toMatchObject({ conversationId: ab, from: { id: alice.user.id } });
      expect((await live).message.call).toEqual({
        kind: 'video',
        outcome: 'missed',
        callerId: alice.user.id,
        durationSec: 0,
      });
      expect(await unread(bob)).toBe((before ?? 0) + 1);
      closeAll();
    }
  });

  it('two tabs of the callee declining together and the caller hanging up log the call once', async () => {
    const { a, b } = await sides();
    const b2 = await connect(srv.url, bob.accessToken);
    const before = (await callEntries()).length;
    await ring(a, b, false, [b2]);
    await Promise.all([
      ack(b, 'call:decline', { conversationId: ab }),
      ack(b2, 'call:decline', { conversationId: ab }),
      ack(a, 'call:end', { conversationId: ab }),
    ]);
    expect((await callEntries()).length).toBe(before + 1);
  });

  it('an invitation nobody can receive logs nothing', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const before = (await callEntries()).length;
    expect((await ack(a, 'call:invite', { conversationId: ab, video: true })).ok).toBe(false);
    expect((await callEntries()).length).toBe(before);
  });
});

describe.skipIf(!redis)('call entries across two server processes', () => {
  let two: TestServer;
  let api2: Api;
  beforeAll(async () => {
    two = await startTestServer({ redisUrl, dataDir: srv.config.dataDir, databaseUrl: srv.config.databaseUrl });
    api2 = client(two.url);
  });
  afterAll(async () => {
    closeAll();
    await two?.close();
  });

  it('an answered call ended on both servers at once is logged once, and seen on both', async () => {
    // Alice on the second process, Bob's tabs on both: the two hang-ups race through both processes' call logs
    // over the shared database, and the entry reaches each tab whichever process wrote it.
    const a = await connect(two.url, alice.accessToken);
    expect(await ack(a, 'conversation:join', ab)).toEqual({ ok: true });
    const b = await connect(two.url, bob.accessToken);
    const bOnOne = await connect(srv.url, bob.accessToken);
    await ring(a, b, true, [bOnOne]);
    await ack(b, 'call:accept', { conversationId: ab, video: true });
    const before = (await callEntries(api2)).length;
    const seen = Promise.all([
      next(a, 'message:new', (p) => p.message.type === 'CALL'),
      next(bOnOne, 'message:notify', (p) => p.message.type === 'CALL'),
    ]);
    await Promise.all([ack(a, 'call:end', { conversationId: ab }), ack(bOnOne, 'call:end', { conversationId: ab })]);
    const [onTwo, onOne] = await seen;
    expect(onOne.message.id).toBe(onTwo.message.id);
    const after = await callEntries(api2);
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)?.call.outcome).toBe('answered');
  });
});
