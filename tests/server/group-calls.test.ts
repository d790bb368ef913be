// A group's call as a room, over real sockets, on SQLite and (with TEST_PG_URL) PostgreSQL: starting opens it and
// rings the others, anyone joins and leaves (late too), the last one out or an owner/admin ends it, one CALL entry
// says who took part, a member removed from the group is out of the call, one device per person, and a call whose
// participants' connections all died ends by itself after GROUP_CALL_GONE_MS on the server's (manual) clock.
// Raised hands keep the order they were raised in; only the group's owner and admins mute or remove someone in the
// call, and a removed member's media token no longer opens the room.
// Direct calls keep their own rules (call-entries.test.ts): a group call event is refused there.
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GroupCall } from '../../src/contract/entities';
import {
  CALL_OVER,
  END_FOR_ALL_ADMINS,
  GROUP_CALL_GONE_MS,
  GROUP_CALL_RING_MAX,
  GROUP_ONLY,
  HAND_IN_CALL,
  MODERATE_ADMINS,
  NOT_IN_CALL,
} from '../../server/calls/group-calls';
import { startSfu } from '../../server/sfu/index';
import { PUSH } from '../../src/contract/notification';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { type ManualClock, manualClock } from './manual-clock';
import { startPushService, subscriberKeys } from './push-service';
import { type Api, ack, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

const redis = await redisAvailable();
let srv: TestServer;
let api: Api;
let clock: ManualClock;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let gleb: TestUser;
let stranger: TestUser;
let direct: string;
let gid: string;

interface State {
  conversationId: string;
  call: GroupCall | null;
}
interface Entry {
  id: string;
  type: string;
  senderId: string;
  call: { kind: string; outcome: string; callerId: string; durationSec: number; participantIds?: string[] };
}

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({ pushAllowLoopback: true }, { clock });
  api = client(srv.url);
  [anna, boris, vera, gleb, stranger] = await Promise.all(
    ['anna', 'boris', 'vera', 'gleb', 'stranger'].map((n) => api.user(n)),
  );
  for (const u of [boris, vera, gleb]) await befriend(api, anna, u);
  direct = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body.conversation
    .id;
});
afterEach(() => closeAll());
afterAll(() => srv.close());

/** A fresh group of Anna (owner), Boris, Vera and Gleb for each test: no call of another test is on in it. */
beforeEach(async () => {
  const res = await api.post(
    '/api/conversations',
    { participantIds: [boris.user.id, vera.user.id, gleb.user.id], title: 'Планёрка', isGroup: true },
    anna.accessToken,
  );
  expect(res.status).toBe(200);
  gid = res.body.conversation.id;
});

const sock = (u: TestUser) => connect(srv.url, u.accessToken);
const stateIn = (s: Socket, where: (call: GroupCall | null) => boolean) =>
  next<State>(s, 'groupCall:state', (p) => p.conversationId === gid && where(p.call));
// Who joined at the same instant of the manual clock is ordered by id: compare as sets.
const sorted = (ids: readonly string[] | undefined) => (ids ? [...ids].sort() : ids);
const withIds = (ids: string[]) => (call: GroupCall | null) =>
  !!call && JSON.stringify(sorted(call.participantIds)) === JSON.stringify(sorted(ids));
const ended = (call: GroupCall | null) => call === null;
const view = async (u: TestUser, id = gid) => {
  const res = await api.get(`/api/conversations/${id}/call`, u.accessToken);
  return { status: res.status, call: res.body.call as GroupCall | null, message: res.body.message as string };
};
const entries = async (u: TestUser = anna) =>
  ((await api.get(`/api/conversations/${gid}/messages?limit=100`, u.accessToken)).body.messages as Entry[]).filter(
    (m) => m.type === 'CALL',
  );
/** Participants of this test's group call whose connection the server saw end (the 30-s check is then due). */
const goneHere = () =>
  srv.server.ctx.db
    .selectFrom('group_call_participants as p')
    .innerJoin('calls as c', 'c.id', 'p.call_id')
    .select('p.user_id')
    .where('c.conversation_id', '=', gid)
    .where('p.gone_at', 'is not', null)
    .where('p.left_at', 'is', null)
    .execute()
    .then((r) => r.length);

/** The chat list's entry of the group: who is in its call (absent when none is on). */
const listed = async (u: TestUser) =>
  (
    (await api.get('/api/conversations', u.accessToken)).body.conversations as {
      conversation: { id: string };
      groupCall?: { participantIds: string[] };
    }[]
  ).find((c) => c.conversation.id === gid)?.groupCall?.participantIds;
const listedVideo = async (u: TestUser) =>
  (
    (await api.get('/api/conversations', u.accessToken)).body.conversations as {
      conversation: { id: string };
      groupCall?: { video: boolean };
    }[]
  ).find((c) => c.conversation.id === gid)?.groupCall?.video;
const unread = async (u: TestUser) =>
  (
    (await api.get('/api/conversations', u.accessToken)).body.conversations as {
      conversation: { id: string };
      unreadCount: number;
    }[]
  ).find((c) => c.conversation.id === gid)?.unreadCount;

describe('a group call is a room', () => {
  it('start rings the others, they join and leave, a latecomer joins, the last one out ends it with one entry', async () => {
    const [a, b, v, g] = await Promise.all([sock(anna), sock(boris), sock(vera), sock(gleb)]);
    const unreadBefore = { boris: await unread(boris), gleb: await unread(gleb) };
    const rang = Promise.all([b, v, g].map((s) => next(s, 'call:incoming', (p) => p.conversationId === gid)));
    const opened = stateIn(g, withIds([anna.user.id]));
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: true })).toEqual({ ok: true });
    for (const ring of await rang) expect(ring).toMatchObject({ group: true, video: true, from: { id: anna.user.id } });
    expect((await opened).call).toMatchObject({ startedBy: anna.user.id, video: true });

    // Boris joins; everyone in the group hears it, and the call bar's GET says the same after a reload.
    const twoIn = stateIn(v, withIds([anna.user.id, boris.user.id]));
    expect(await ack(b, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    await twoIn;
    expect(sorted((await view(gleb)).call?.participantIds)).toEqual(sorted([anna.user.id, boris.user.id]));
    expect(sorted(await listed(gleb))).toEqual(sorted([anna.user.id, boris.user.id]));
    expect(await listedVideo(gleb)).toBe(true);

    // Boris leaves: only he is out, the call goes on.
    const borisOut = stateIn(v, withIds([anna.user.id]));
    expect(await ack(b, 'groupCall:leave', { conversationId: gid })).toEqual({ ok: true });
    await borisOut;

    // Vera was away and joins late, from the bar.
    clock.advance(60_000);
    const late = stateIn(g, withIds([anna.user.id, vera.user.id]));
    expect(await ack(v, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    await late;

    const veraOut = stateIn(g, withIds([anna.user.id]));
    expect(await ack(v, 'groupCall:leave', { conversationId: gid })).toEqual({ ok: true });
    await veraOut;
    expect(await entries()).toEqual([]);

    // Anna, the last one in it, leaves: the call ends and is logged once.
    const over = stateIn(g, ended);
    const entry = next(g, 'message:notify', (p) => p.conversationId === gid);
    clock.advance(2_000);
    expect(await ack(a, 'groupCall:leave', { conversationId: gid })).toEqual({ ok: true });
    await over;
    const call = (await entry).message.call;
    expect(call).toMatchObject({ kind: 'video', outcome: 'answered', callerId: anna.user.id, durationSec: 62 });
    // Vera came a minute later: last.
    expect(call.participantIds.at(-1)).toBe(vera.user.id);
    expect(sorted(call.participantIds)).toEqual(sorted([anna.user.id, boris.user.id, vera.user.id]));
    const logged = await entries(gleb);
    expect(logged).toHaveLength(1);
    expect(logged[0].call).toEqual(call);
    expect((await view(boris)).call).toBeNull();
    expect(await listed(gleb)).toBeUndefined();
    // Who took part has seen it; Gleb, rung and never there, has a missed call.
    expect(await unread(boris)).toBe(unreadBefore.boris);
    expect(await unread(gleb)).toBe((unreadBefore.gleb ?? 0) + 1);
    // Joining a call that is over is refused.
    expect(await ack(g, 'groupCall:join', { conversationId: gid })).toEqual({ ok: false, message: CALL_OVER });
  });

  it('a decline stops only my own ringing; a second start joins the call that is on and rings nobody', async () => {
    const [a, b1, b2, v] = await Promise.all([sock(anna), sock(boris), sock(boris), sock(vera)]);
    const seenByAnna = recorder(a);
    const seenByVera = recorder(v);
    const rang = Promise.all([b1, b2, v].map((s) => next(s, 'call:incoming', (p) => p.conversationId === gid)));
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    await rang;
    const stopped = next(b2, 'call:declined', (p) => p.conversationId === gid);
    expect(await ack(b1, 'groupCall:decline', { conversationId: gid })).toEqual({ ok: true });
    expect((await stopped).from.id).toBe(boris.user.id);
    await Promise.all([roundTrip(a), roundTrip(v)]);
    for (const seen of [seenByAnna, seenByVera]) {
      expect(seen.events()).not.toContain('call:declined');
      expect(seen.events()).not.toContain('call:ended');
    }
    expect(sorted((await view(vera)).call?.participantIds)).toEqual(sorted([anna.user.id]));

    const ringsAgain = recorder(b1);
    const joined = stateIn(a, withIds([anna.user.id, vera.user.id]));
    expect(await ack(v, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    await joined;
    await roundTrip(b1);
    expect(ringsAgain.events()).not.toContain('call:incoming');
  });

  it('«Завершить для всех»: refused to a member, done by an admin for everyone in it', async () => {
    const [a, b, v] = await Promise.all([sock(anna), sock(boris), sock(vera)]);
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    expect(await ack(b, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    expect(await ack(v, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    expect(await ack(b, 'groupCall:end', { conversationId: gid })).toEqual({ ok: false, message: END_FOR_ALL_ADMINS });
    expect((await view(anna)).call?.participantIds).toHaveLength(3);

    // Anna makes Boris an admin; now he may end it.
    const role = await api.post(
      '/api/conversations/members/role',
      { conversationId: gid, userId: boris.user.id, role: 'ADMIN' },
      anna.accessToken,
    );
    expect(role.status).toBe(200);
    const over = Promise.all([a, v].map((s) => stateIn(s, ended)));
    expect(await ack(b, 'groupCall:end', { conversationId: gid })).toEqual({ ok: true });
    await over;
    const logged = await entries();
    expect(logged).toHaveLength(1);
    expect(logged[0].call.outcome).toBe('answered');
    expect(sorted(logged[0].call.participantIds)).toEqual(sorted([anna.user.id, boris.user.id, vera.user.id]));
    expect((await view(vera)).call).toBeNull();
  });

  it('a member removed from the group, or who leaves it, is out of its call at once', async () => {
    const [a, b, v, g] = await Promise.all([sock(anna), sock(boris), sock(vera), sock(gleb)]);
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    for (const s of [b, v, g]) expect(await ack(s, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });

    const borisOut = stateIn(a, withIds([anna.user.id, vera.user.id, gleb.user.id]));
    const removed = await api.post(
      '/api/conversations/members/remove',
      { conversationId: gid, userId: boris.user.id },
      anna.accessToken,
    );
    expect(removed.status).toBe(200);
    await borisOut;
    // Once out of the group he can neither see nor rejoin the call.
    expect((await view(boris)).status).toBe(404);
    expect((await ack(b, 'groupCall:join', { conversationId: gid })).ok).toBe(false);

    const glebOut = stateIn(a, withIds([anna.user.id, vera.user.id]));
    expect((await api.post('/api/conversations/leave', { conversationId: gid }, gleb.accessToken)).status).toBe(200);
    await glebOut;
  });

  it('one device at a time: joining from a second tab moves the call, the first is told', async () => {
    const [a, b1, b2] = await Promise.all([sock(anna), sock(boris), sock(boris)]);
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    expect(await ack(b1, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    const moved = next(b1, 'groupCall:moved', (p) => p.conversationId === gid);
    expect(await ack(b2, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    await moved;
    expect(sorted((await view(anna)).call?.participantIds)).toEqual(sorted([anna.user.id, boris.user.id]));
    // The first tab closing no longer takes Boris out: his place is the second tab's.
    b1.disconnect();
    await roundTrip(b2);
    clock.advance(GROUP_CALL_GONE_MS);
    await roundTrip(a);
    expect(sorted((await view(anna)).call?.participantIds)).toEqual(sorted([anna.user.id, boris.user.id]));
  });

  it(`a call whose participants' connections all died ends by itself after ${GROUP_CALL_GONE_MS / 1000} s`, async () => {
    const [a, b, v] = await Promise.all([sock(anna), sock(boris), sock(vera)]);
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    expect(await ack(b, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    a.disconnect();
    b.disconnect();
    await expect.poll(goneHere).toBe(2);
    // Just short of the time they still count as in it.
    clock.advance(GROUP_CALL_GONE_MS - 1);
    await roundTrip(v);
    expect(sorted((await view(vera)).call?.participantIds)).toEqual(sorted([anna.user.id, boris.user.id]));
    const over = stateIn(v, ended);
    clock.advance(1);
    await over;
    expect(await entries(vera)).toHaveLength(1);
  });

  it('someone who comes back in time keeps the call going; the one who does not is taken out', async () => {
    const [a, b, v] = await Promise.all([sock(anna), sock(boris), sock(vera)]);
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    expect(await ack(b, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    a.disconnect();
    b.disconnect();
    await expect.poll(goneHere).toBe(2);
    // Anna's connection is back and her client rejoins.
    const a2 = await sock(anna);
    expect(await ack(a2, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    const borisOut = stateIn(v, withIds([anna.user.id]));
    clock.advance(GROUP_CALL_GONE_MS);
    await borisOut;
    expect(sorted((await view(vera)).call?.participantIds)).toEqual(sorted([anna.user.id]));
  });
});

describe('raised hands and moderation', () => {
  const withHands = (ids: string[]) => (call: GroupCall | null) =>
    !!call && JSON.stringify(call.hands) === JSON.stringify(ids);
  const moderate = (u: TestUser, action: 'mute' | 'remove', target: TestUser, id = gid) =>
    api.post(`/api/conversations/${id}/call/${action}`, { userId: target.user.id }, u.accessToken);

  it('hands are listed in the order they were raised, raising twice keeps the place, leaving lowers it', async () => {
    const [a, b, v, g] = await Promise.all([sock(anna), sock(boris), sock(vera), sock(gleb)]);
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    for (const s of [b, v]) expect(await ack(s, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    expect((await view(anna)).call?.hands).toEqual([]);

    // Vera raises first, then Boris, then Anna: the order is theirs, not the joining order or the ids'.
    const seen = stateIn(g, withHands([vera.user.id, boris.user.id, anna.user.id]));
    for (const s of [v, b, a]) {
      expect(await ack(s, 'groupCall:hand', { conversationId: gid, raised: true })).toEqual({ ok: true });
      clock.advance(1);
    }
    await seen;
    // Raising again does not move Vera to the end.
    expect(await ack(v, 'groupCall:hand', { conversationId: gid, raised: true })).toEqual({ ok: true });
    expect((await view(gleb)).call?.hands).toEqual([vera.user.id, boris.user.id, anna.user.id]);

    const lowered = stateIn(a, withHands([vera.user.id, anna.user.id]));
    expect(await ack(b, 'groupCall:hand', { conversationId: gid, raised: false })).toEqual({ ok: true });
    await lowered;
    const left = stateIn(a, withHands([anna.user.id]));
    expect(await ack(v, 'groupCall:leave', { conversationId: gid })).toEqual({ ok: true });
    await left;
    // Back in the call, her hand is down until she raises it again, now after Anna's.
    expect(await ack(v, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    expect((await view(anna)).call?.hands).toEqual([anna.user.id]);
    clock.advance(1);
    expect(await ack(v, 'groupCall:hand', { conversationId: gid, raised: true })).toEqual({ ok: true });
    expect((await view(anna)).call?.hands).toEqual([anna.user.id, vera.user.id]);

    // Only someone in the call raises a hand; a stranger is not even told there is a group.
    expect(await ack(g, 'groupCall:hand', { conversationId: gid, raised: true })).toEqual({
      ok: false,
      message: HAND_IN_CALL,
    });
    const s = await sock(stranger);
    expect(await ack(s, 'groupCall:hand', { conversationId: gid, raised: true })).toEqual({
      ok: false,
      message: 'Беседа не найдена',
    });
  });

  it('«Выключить микрофон»: only the owner and admins, only of someone in the call; the target is told', async () => {
    const [a, b, v, g] = await Promise.all([sock(anna), sock(boris), sock(vera), sock(gleb)]);
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    for (const s of [b, v]) expect(await ack(s, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
    const heard = { boris: recorder(b), vera: recorder(v) };

    // A plain member may not; nor may anyone outside the group.
    const refused = await moderate(vera, 'mute', boris);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MODERATE_ADMINS);
    expect((await moderate(stranger, 'mute', boris)).status).toBe(404);
    // Gleb is in the group but not in the call.
    const absent = await moderate(anna, 'mute', gleb);
    expect(absent.status).toBe(403);
    expect(absent.body.message).toBe(NOT_IN_CALL);
    expect((await moderate(anna, 'mute', anna)).status).toBe(400);

    const muted = next(b, 'groupCall:muted', (p) => p.conversationId === gid);
    const done = await moderate(anna, 'mute', boris);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ok: true });
    await muted;
    await roundTrip(v);
    await roundTrip(g);
    expect(heard.vera.events()).not.toContain('groupCall:muted');
    // Muted is not out: Boris stays in the call.
    expect(sorted((await view(anna)).call?.participantIds)).toEqual(
      sorted([anna.user.id, boris.user.id, vera.user.id]),
    );
    expect(heard.boris.events()).not.toContain('groupCall:removed');
  });

  it('«Удалить из звонка»: the target is told, leaves the roster and the media room, and may join again', async () => {
    const dropped: { room: string; identities: readonly string[] }[] = [];
    srv.server.app.mediaRooms.attach({
      removeParticipants(room, identities) {
        dropped.push({ room, identities });
        return identities.length;
      },
    });
    try {
      const [a, b, v] = await Promise.all([sock(anna), sock(boris), sock(vera)]);
      expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
      for (const s of [b, v]) expect(await ack(s, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
      expect(await ack(b, 'groupCall:hand', { conversationId: gid, raised: true })).toEqual({ ok: true });

      const refused = await moderate(vera, 'remove', boris);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MODERATE_ADMINS);
      expect(dropped).toEqual([]);

      // Anna makes Vera an admin: now she may.
      const role = await api.post(
        '/api/conversations/members/role',
        { conversationId: gid, userId: vera.user.id, role: 'ADMIN' },
        anna.accessToken,
      );
      expect(role.status).toBe(200);
      const told = next(b, 'groupCall:removed', (p) => p.conversationId === gid);
      const rest = stateIn(a, (call) => withIds([anna.user.id, vera.user.id])(call) && withHands([])(call));
      expect((await moderate(vera, 'remove', boris)).status).toBe(200);
      await told;
      await rest;
      expect(dropped).toEqual([{ room: `conv-${gid}`, identities: [boris.user.id] }]);
      // Out already: a second removal is refused.
      const again = await moderate(vera, 'remove', boris);
      expect(again.status).toBe(403);
      expect(again.body.message).toBe(NOT_IN_CALL);

      // «Присоединиться» again brings him back (the media server takes a token issued after the removal).
      expect(await ack(b, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
      expect(sorted((await view(anna)).call?.participantIds)).toEqual(
        sorted([anna.user.id, boris.user.id, vera.user.id]),
      );

      // Removing the last one in the call ends it (an admin need not be in the call to moderate it).
      expect(await ack(b, 'groupCall:leave', { conversationId: gid })).toEqual({ ok: true });
      expect(await ack(v, 'groupCall:leave', { conversationId: gid })).toEqual({ ok: true });
      const over = stateIn(b, ended);
      expect((await moderate(vera, 'remove', anna)).status).toBe(200);
      await over;
      // No call, nothing to moderate.
      const none = await moderate(vera, 'mute', anna);
      expect(none.status).toBe(404);
      expect(none.body.message).toBe(CALL_OVER);
    } finally {
      srv.server.app.mediaRooms.attach(null);
    }
  });

  it("the removed member's media token no longer opens the room on the embedded media server; the others' do", async () => {
    const sfu = await startSfu({
      port: 0,
      host: '127.0.0.1',
      apiKey: srv.server.ctx.secrets.livekitApiKey,
      apiSecret: srv.server.ctx.secrets.livekitApiSecret,
      hostCandidates: ['127.0.0.1'],
      workers: 0,
    });
    srv.server.app.mediaRooms.attach(sfu);
    try {
      const [a, b] = await Promise.all([sock(anna), sock(boris)]);
      expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
      expect(await ack(b, 'groupCall:join', { conversationId: gid })).toEqual({ ok: true });
      const mediaToken = async (u: TestUser) =>
        (await api.post('/api/livekit/token', { room: `conv-${gid}` }, u.accessToken)).body.token as string;
      const validate = async (jwt: string) => {
        const res = await fetch(`${sfu.url.replace('ws', 'http')}/rtc/v1/validate?access_token=${jwt}`);
        return { status: res.status, body: await res.text() };
      };
      const [borisToken, annaToken] = [await mediaToken(boris), await mediaToken(anna)];
      expect((await validate(borisToken)).status).toBe(200);
      expect((await moderate(anna, 'remove', boris)).status).toBe(200);
      const refused = await validate(borisToken);
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('removed from the room');
      expect((await validate(annaToken)).status).toBe(200);
    } finally {
      srv.server.app.mediaRooms.attach(null);
      await sfu.close();
    }
  });
});

describe(`a group over ${GROUP_CALL_RING_MAX} members`, () => {
  /** Anna's friends beyond Boris, Vera and Gleb: enough for a group of RING_MAX and one of RING_MAX + 1. */
  let crowd: TestUser[];
  beforeAll(async () => {
    crowd = await Promise.all(Array.from({ length: GROUP_CALL_RING_MAX - 3 }, (_, i) => api.user(`crowd${i}`)));
    for (const u of crowd) await befriend(api, anna, u);
  });
  const groupOf = async (members: TestUser[], title: string) => {
    const res = await api.post(
      '/api/conversations',
      { participantIds: members.map((m) => m.user.id), title, isGroup: true },
      anna.accessToken,
    );
    expect(res.status).toBe(200);
    return res.body.conversation.id as string;
  };

  it(`up to ${GROUP_CALL_RING_MAX} members everyone rings; one more and nobody does: the unmuted are told once, offline ones by push`, async () => {
    const ps = await startPushService();
    try {
      // Exactly RING_MAX: Boris's phone rings.
      const twenty = await groupOf([boris, vera, gleb, ...crowd.slice(0, -1)], 'Двадцать');
      const [a, b] = await Promise.all([sock(anna), sock(boris)]);
      const heardByBoris = recorder(b);
      const rang = next(b, 'call:incoming', (p) => p.conversationId === twenty);
      expect(await ack(a, 'groupCall:start', { conversationId: twenty, video: false })).toEqual({ ok: true });
      expect(await rang).toMatchObject({ group: true, from: { id: anna.user.id } });
      expect(heardByBoris.events()).not.toContain('groupCall:started');
      expect(await ack(a, 'groupCall:leave', { conversationId: twenty })).toEqual({ ok: true });

      // RING_MAX + 1: Vera muted the group; Gleb has no tab open and a push subscription.
      const big = await groupOf([boris, vera, gleb, ...crowd], 'Школа');
      const mute = await api.patch(`/api/conversations/${big}/settings`, { mutedUntil: 'forever' }, vera.accessToken);
      expect(mute.status).toBe(200);
      const glebSub = subscriberKeys();
      const veraSub = subscriberKeys();
      for (const [u, sub, path] of [
        [gleb, glebSub, '/gleb'],
        [vera, veraSub, '/vera'],
      ] as const) {
        const r = await api.post(
          '/api/push/subscribe',
          { endpoint: ps.url + path, keys: sub.keys, showText: true },
          u.accessToken,
        );
        expect(r.status).toBe(200);
      }
      const [v, c0] = await Promise.all([sock(vera), sock(crowd[0])]);
      const seen = [a, b, v, c0].map(recorder);
      const told = Promise.all([b, c0].map((s) => next(s, 'groupCall:started', (p) => p.conversationId === big)));
      const bar = next<State>(v, 'groupCall:state', (p) => p.conversationId === big && withIds([anna.user.id])(p.call));
      expect(await ack(a, 'groupCall:start', { conversationId: big, video: true })).toEqual({ ok: true });
      for (const t of await told)
        expect(t).toEqual({
          conversationId: big,
          from: { id: anna.user.id, name: anna.user.displayName, avatarUrl: null },
          video: true,
          title: 'Школа',
        });
      // Vera, muted, sees the bar and hears nothing else.
      await bar;
      const pushed = await ps.nth('/gleb', 1);
      expect(pushed.headers.ttl).toBe(String(PUSH.groupCallTtlSec));
      expect(JSON.parse(glebSub.decrypt(pushed.body))).toEqual({
        kind: 'groupCall',
        conversationId: big,
        title: `${anna.user.displayName} — Школа`,
        video: true,
        icon: null,
      });

      // Boris joins from the notice: the call was on already, so nobody is told again.
      expect(await ack(b, 'groupCall:start', { conversationId: big, video: true })).toEqual({ ok: true });
      await Promise.all([a, b, v, c0].map(roundTrip));
      await srv.server.ctx.push.settled();
      for (const r of seen) expect(r.events()).not.toContain('call:incoming');
      expect(seen[0].events()).not.toContain('groupCall:started'); // the one who started it
      expect(seen[2].events()).not.toContain('groupCall:started'); // muted
      expect(seen[1].events().filter((e) => e === 'groupCall:started')).toHaveLength(1);
      expect(ps.requests.map((r) => r.path)).toEqual(['/gleb']);
      for (const s of [a, b]) expect(await ack(s, 'groupCall:leave', { conversationId: big })).toEqual({ ok: true });
    } finally {
      await ps.close();
    }
  });
});

describe('who may do what', () => {
  it('only members; only in a group; bad input is refused in Russian', async () => {
    const [a, s] = await Promise.all([sock(anna), sock(stranger)]);
    expect(await ack(s, 'groupCall:start', { conversationId: gid, video: false })).toEqual({
      ok: false,
      message: 'Беседа не найдена',
    });
    expect(await ack(a, 'groupCall:start', { conversationId: direct, video: false })).toEqual({
      ok: false,
      message: GROUP_ONLY,
    });
    expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
    for (const event of ['groupCall:join', 'groupCall:leave', 'groupCall:end', 'groupCall:decline'])
      expect(await ack(s, event, { conversationId: gid })).toEqual({ ok: false, message: 'Беседа не найдена' });
    const bad = await ack<{ ok: boolean; message: string }>(a, 'groupCall:join', { conversationId: 5 });
    expect(bad.ok).toBe(false);
    expect(bad.message).toMatch(/[а-яё]/i);
    expect((await view(stranger)).status).toBe(404);
    expect(sorted((await view(anna)).call?.participantIds)).toEqual(sorted([anna.user.id]));
    // A direct chat has no room: its GET says no call, and its calls keep ringing and ending as before.
    expect((await view(anna, direct)).call).toBeNull();
  });

  it('a direct call is untouched: an invitation and a hang-up log it as before', async () => {
    const [a, b] = await Promise.all([sock(anna), sock(boris)]);
    const rang = next(b, 'call:incoming', (p) => p.conversationId === direct);
    expect(await ack(a, 'call:invite', { conversationId: direct, video: false })).toEqual({ ok: true });
    expect((await rang).group).toBeUndefined();
    const ended = next(b, 'call:ended', (p) => p.conversationId === direct);
    expect(await ack(a, 'call:end', { conversationId: direct })).toEqual({ ok: true });
    await ended;
    const logged = (
      (await api.get(`/api/conversations/${direct}/messages?limit=100`, anna.accessToken)).body.messages as Entry[]
    ).filter((m) => m.type === 'CALL');
    expect(logged.at(-1)?.call).toEqual({
      kind: 'audio',
      outcome: 'cancelled',
      callerId: anna.user.id,
      durationSec: 0,
    });
  });
});

describe.skipIf(!redis)('on two server processes (one database, Redis)', () => {
  let one: TestServer;
  let two: TestServer;
  beforeAll(async () => {
    one = await startTestServer({ redisUrl });
    two = await startTestServer({ redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl });
  });
  afterAll(async () => {
    closeAll();
    await two?.close();
    await one?.close();
  });

  it('every process sees the same call: join, move between devices, leave and the end', async () => {
    const api1 = client(one.url);
    const [a, b, v] = await Promise.all(['anna2', 'boris2', 'vera2'].map((n) => api1.user(n)));
    for (const u of [b, v]) await befriend(api1, a, u);
    const group = (
      await api1.post(
        '/api/conversations',
        { participantIds: [b.user.id, v.user.id], title: 'Две машины', isGroup: true },
        a.accessToken,
      )
    ).body.conversation.id as string;
    const [sa, sb, sv, sb1] = await Promise.all([
      connect(one.url, a.accessToken),
      connect(two.url, b.accessToken),
      connect(two.url, v.accessToken),
      connect(one.url, b.accessToken),
    ]);
    const state = (s: Socket, n: number) =>
      next<State>(
        s,
        'groupCall:state',
        (p) => p.conversationId === group && (p.call?.participantIds.length ?? 0) === n,
      );
    const rang = next(sb, 'call:incoming', (p) => p.conversationId === group);
    expect(await ack(sa, 'groupCall:start', { conversationId: group, video: false })).toEqual({ ok: true });
    await rang;
    const both = state(sv, 2);
    expect(await ack(sb, 'groupCall:join', { conversationId: group })).toEqual({ ok: true });
    await both;
    // Boris takes the call to his device on the other process: the first is told across Redis.
    const moved = next(sb, 'groupCall:moved', (p) => p.conversationId === group);
    expect(await ack(sb1, 'groupCall:join', { conversationId: group })).toEqual({ ok: true });
    await moved;
    const one1 = state(sv, 1);
    expect(await ack(sa, 'groupCall:leave', { conversationId: group })).toEqual({ ok: true });
    await one1;
    const over = next<State>(sv, 'groupCall:state', (p) => p.conversationId === group && p.call === null);
    expect(await ack(sb1, 'groupCall:leave', { conversationId: group })).toEqual({ ok: true });
    await over;
    const api2 = client(two.url);
    const calls = (
      (await api2.get(`/api/conversations/${group}/messages?limit=100`, v.accessToken)).body.messages as Entry[]
    ).filter((m) => m.type === 'CALL');
    expect(calls).toHaveLength(1);
    expect(sorted(calls[0].call.participantIds)).toEqual(sorted([a.user.id, b.user.id]));
  });
});
