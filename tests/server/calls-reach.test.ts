// Calls and several tabs, over real sockets: an answer in one tab of the callee reaches its other tabs (so they
// stop ringing) and never the tab that answered; an invitation nobody can receive is refused in the ack.
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, ack, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let ab: string;
let group: string;

beforeAll(async () => {
  srv = await startTestServer({ redisUrl: process.env.TEST_REDIS_URL ?? null });
  api = client(srv.url);
  [alice, bob, carol] = await Promise.all([api.user('alice'), api.user('bob'), api.user('carol')]);
  await befriend(api, alice, bob);
  await befriend(api, alice, carol);
  ab = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation.id;
  group = (
    await api.post(
      '/api/conversations',
      { participantIds: [bob.user.id, carol.user.id], title: 'Трое', isGroup: true },
      alice.accessToken,
    )
  ).body.conversation.id;
});
afterEach(() => closeAll());
afterAll(() => srv.close());

const calls = (seen: ReturnType<typeof recorder>) => seen.seen.filter((s) => s.event.startsWith('call:'));

describe('calls to a user with several tabs', () => {
  let a: Socket;
  let b1: Socket;
  let b2: Socket;
  beforeEach(async () => {
    a = await connect(srv.url, alice.accessToken);
    b1 = await connect(srv.url, bob.accessToken);
    b2 = await connect(srv.url, bob.accessToken);
  });

  it('rings every tab; accepting in one tells the caller and the other tab, not the tab that accepted', async () => {
    const rang = Promise.all([next(b1, 'call:incoming'), next(b2, 'call:incoming')]);
    expect(await ack(a, 'call:invite', { conversationId: ab, video: true })).toEqual({ ok: true });
    await rang;
    const b1Seen = recorder(b1);
    const toCaller = next(a, 'call:accepted');
    const toOtherTab = next(b2, 'call:accepted');
    expect(await ack(b1, 'call:accept', { conversationId: ab, video: true })).toEqual({ ok: true });
    const from = { id: bob.user.id, name: bob.user.displayName, avatarUrl: null };
    expect(await toCaller).toEqual({ conversationId: ab, from, video: true });
    expect(await toOtherTab).toEqual({ conversationId: ab, from, video: true });
    await roundTrip(b1);
    expect(calls(b1Seen)).toEqual([]);
  });

  it('declining in one tab tells the caller and the other tab', async () => {
    const rang = Promise.all([next(b1, 'call:incoming'), next(b2, 'call:incoming')]);
    await ack(a, 'call:invite', { conversationId: ab, video: false });
    await rang;
    const b2Seen = recorder(b2);
    const toCaller = next(a, 'call:declined');
    const toOtherTab = next(b1, 'call:declined');
    await ack(b2, 'call:decline', { conversationId: ab });
    const from = { id: bob.user.id, name: bob.user.displayName, avatarUrl: null };
    expect(await toCaller).toEqual({ conversationId: ab, from });
    expect(await toOtherTab).toEqual({ conversationId: ab, from });
    await roundTrip(b2);
    expect(calls(b2Seen)).toEqual([]);
  });
});

describe('calls nobody can receive', () => {
  it('refuses the invitation in the ack when the other member has no connected tab, and rings nobody', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const aOther = await connect(srv.url, alice.accessToken);
    const aliceOtherTab = recorder(aOther);
    expect(await ack(a, 'call:invite', { conversationId: ab, video: true })).toEqual({
      ok: false,
      message: 'Собеседник не в сети',
    });
    // Once bob connects, the same invitation goes through.
    const b = await connect(srv.url, bob.accessToken);
    const incoming = next(b, 'call:incoming');
    expect(await ack(a, 'call:invite', { conversationId: ab, video: true })).toEqual({ ok: true });
    await incoming;
    await roundTrip(aOther);
    expect(calls(aliceOtherTab)).toEqual([]);
  });

  it('in a group: refused when no member is connected, rung when any one is', async () => {
    const a = await connect(srv.url, alice.accessToken);
    expect(await ack(a, 'call:invite', { conversationId: group, video: false })).toEqual({
      ok: false,
      message: 'Никого из участников беседы нет в сети',
    });
    const c = await connect(srv.url, carol.accessToken);
    const incoming = next(c, 'call:incoming');
    expect(await ack(a, 'call:invite', { conversationId: group, video: false })).toEqual({ ok: true });
    expect((await incoming).conversationId).toBe(group);
  });

  it('counts a user whose last tab closed as unreachable again', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const b = await connect(srv.url, bob.accessToken);
    b.disconnect();
    await expect.poll(async () => (await ack(a, 'call:invite', { conversationId: ab, video: false })).ok).toBe(false);
  });
});
