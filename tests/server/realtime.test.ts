// The socket.io gateway with real socket.io-client websockets against the real server.
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TIMINGS } from '../../src/contract/limits';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import {
  type Api,
  ack,
  befriend,
  closeAll,
  connect,
  next,
  presenceWatch,
  recorder,
  roundTrip,
  type TestUser,
} from './socket-helpers';

let srv: TestServer;
let presence: ReturnType<typeof presenceWatch>;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
/** A friend of alice who is in none of the conversations under test: must receive nothing about them. */
let outsider: TestUser;
let ab: string;
let group: string;
let clock: ManualClock;

beforeAll(async () => {
  // TEST_REDIS_URL runs the same suite through the socket.io Redis adapter.
  clock = manualClock();
  srv = await startTestServer({ redisUrl: process.env.TEST_REDIS_URL ?? null }, { clock });
  presence = presenceWatch(srv.server.ctx.realtime);
  api = client(srv.url);
  [alice, bob, carol, outsider] = await Promise.all([
    api.user('alice'),
    api.user('bob'),
    api.user('carol'),
    api.user('otto'),
  ]);
  await befriend(api, alice, bob);
  await befriend(api, alice, carol);
  await befriend(api, alice, outsider);
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

const send = (u: TestUser, conversationId: string, content: string) =>
  api.post('/api/conversations/send', { conversationId, type: 'TEXT', content }, u.accessToken);

/** Events the outsider saw that mention one of the test conversations. */
const leaked = (seen: { event: string; payload: unknown }[]) =>
  seen.filter((s) => {
    const text = JSON.stringify(s.payload);
    return text.includes(ab) || text.includes(group);
  });

describe('handshake', () => {
  it('refuses a missing, invalid or expired token with connect_error', async () => {
    await expect(connect(srv.url, null)).rejects.toThrow(/Требуется вход/);
    await expect(connect(srv.url, 'not-a-jwt')).rejects.toThrow(/Требуется вход/);
    const expiredClock = manualClock();
    const expiredSrv = await startTestServer({ accessTokenTtlSec: 0 }, { clock: expiredClock });
    try {
      const u = await client(expiredSrv.url).user('old');
      expiredClock.advance(1000);
      await expect(connect(expiredSrv.url, u.accessToken)).rejects.toThrow(/Требуется вход/);
    } finally {
      await expiredSrv.close();
    }
  });

  it('accepts the token in auth or in the query, websocket only', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const b = await connect(srv.url, alice.accessToken, { via: 'query' });
    expect(a.connected && b.connected).toBe(true);
    expect(a.io.engine.transport.name).toBe('websocket');
    const polling = await fetch(`${srv.url}/socket.io/?EIO=4&transport=polling`);
    expect(polling.status).toBe(400);
  });
});

describe('conversation rooms and messages', () => {
  it('delivers a send live to the other member; a non-member gets nothing', async () => {
    const bobSock = await connect(srv.url, bob.accessToken);
    const outSock = await connect(srv.url, outsider.accessToken);
    const outSeen = recorder(outSock);
    expect(await ack(bobSock, 'conversation:join', ab)).toEqual({ ok: true });
    const live = next(bobSock, 'message:new');
    const bobSeen = recorder(bobSock);
    const sending = send(alice, ab, 'вживую');
    const got = await live;
    // Committed before the event: the history already holds it, even before the sender has its answer.
    const history = await api.get(`/api/conversations/${ab}/messages`, bob.accessToken);
    expect(history.body.messages.map((m: { id: string }) => m.id)).toContain(got.message.id);
    const res = await sending;
    expect(res.status).toBe(200);
    expect(got.message.id).toBe(res.body.message.id);
    expect(got.message.content).toBe('вживую');
    // The outsider may not join and receives nothing about the conversation.
    const refused = await ack(outSock, 'conversation:join', { conversationId: ab });
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/не найдена/);
    await send(alice, ab, 'после попытки');
    await roundTrip(outSock);
    expect(leaked(outSeen.seen)).toEqual([]);
    // One frame per message for a socket that has the conversation open: message:new, no message:notify.
    expect(bobSeen.events().filter((e) => e.startsWith('message:'))).toEqual(['message:new', 'message:new']);
  });

  it('sends message:new only to joined sockets and stops after conversation:leave', async () => {
    const joined = await connect(srv.url, bob.accessToken);
    const other = await connect(srv.url, bob.accessToken);
    const otherSeen = recorder(other);
    await ack(joined, 'conversation:join', { conversationId: ab });
    const got = next(joined, 'message:new');
    await send(alice, ab, 'один');
    await got;
    await roundTrip(other);
    expect(otherSeen.events()).not.toContain('message:new');
    expect(otherSeen.events()).toContain('message:notify');
    expect(await ack(joined, 'conversation:leave', ab)).toEqual({ ok: true });
    const joinedSeen = recorder(joined);
    const notified = next(joined, 'message:notify');
    await send(alice, ab, 'два');
    await notified;
    await roundTrip(joined);
    expect(joinedSeen.events()).not.toContain('message:new');
  });

  it('does not notify the sender; tells every member of a group', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const b = await connect(srv.url, bob.accessToken);
    const c = await connect(srv.url, carol.accessToken);
    const aSeen = recorder(a);
    const both = Promise.all([next(b, 'message:notify'), next(c, 'message:notify')]);
    const res = await send(alice, group, 'всем');
    const [nb, nc] = await both;
    expect(nb.message.id).toBe(res.body.message.id);
    expect(nc.message.id).toBe(res.body.message.id);
    await roundTrip(a);
    expect(aSeen.events()).not.toContain('message:notify');
  });

  it('announces deletion and receipts to members only', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const b = await connect(srv.url, bob.accessToken);
    const out = await connect(srv.url, outsider.accessToken);
    const outSeen = recorder(out);
    const m = (await send(bob, ab, 'прочти меня')).body.message;
    const receipt = next(b, 'receipts:update');
    await api.post('/api/messages/receipts', { messageIds: [m.id], status: 'READ' }, alice.accessToken);
    expect(await receipt).toEqual({ conversationId: ab, userId: alice.user.id, messageIds: [m.id], status: 'READ' });
    const m2 = (await send(bob, ab, 'и меня')).body.message;
    const all = next(b, 'receipts:update');
    await api.post('/api/messages/mark-conversation-read', { conversationId: ab }, alice.accessToken);
    // The second read falls in the announcement window the first one opened: it goes when the window ends.
    clock.advance(TIMINGS.receiptAnnounceMs);
    expect((await all).messageIds).toContain(m2.id);
    const deleted = next(a, 'message:deleted');
    await api.post('/api/messages/delete', { messageId: m2.id }, bob.accessToken);
    expect(await deleted).toEqual({ conversationId: ab, messageId: m2.id });
    await roundTrip(out);
    expect(leaked(outSeen.seen)).toEqual([]);
  });

  it('tells the members of a new conversation and nobody else', async () => {
    const c = await connect(srv.url, carol.accessToken);
    const b = await connect(srv.url, bob.accessToken);
    const out = await connect(srv.url, outsider.accessToken);
    const outSeen = recorder(out);
    const forCarol = next(c, 'conversations:new');
    const forBob = next(b, 'conversations:new');
    const res = await api.post(
      '/api/conversations',
      { participantIds: [carol.user.id, bob.user.id], title: 'Новая' },
      alice.accessToken,
    );
    expect((await forCarol).conversation.id).toBe(res.body.conversation.id);
    expect((await forBob).conversation.title).toBe('Новая');
    await roundTrip(out);
    expect(outSeen.events()).not.toContain('conversations:new');
  });
});

describe('contacts and profile events', () => {
  it('tells each side of a friend request, and only them', async () => {
    const [gil, hal] = await Promise.all([api.user('gil'), api.user('hal')]);
    const g = await connect(srv.url, gil.accessToken);
    const h = await connect(srv.url, hal.accessToken);
    const out = await connect(srv.url, outsider.accessToken);
    const outSeen = recorder(out);
    const requested = next(h, 'contacts:request:new');
    const add = await api.post('/api/contacts/add', { identifier: hal.user.eblid }, gil.accessToken);
    expect(add.status).toBe(200);
    expect(await requested).toMatchObject({
      contact: { id: add.body.contact.id, direction: 'incoming', friend: { id: gil.user.id } },
    });
    const accepted = next(g, 'contacts:request:accepted');
    await api.post('/api/contacts/respond', { contactId: add.body.contact.id, action: 'accept' }, hal.accessToken);
    expect(await accepted).toMatchObject({ contact: { status: 'ACCEPTED', friend: { id: hal.user.id } } });
    const profile = next(g, 'profile:update', (p) => p.userId === hal.user.id);
    await api.patch('/api/status/me', { displayName: 'Хэл' }, hal.accessToken);
    expect(await profile).toEqual({ userId: hal.user.id, avatarUrl: null, displayName: 'Хэл' });
    const removed = next(g, 'contacts:removed');
    await api.post('/api/contacts/remove', { contactId: add.body.contact.id }, hal.accessToken);
    expect(await removed).toEqual({ contactId: add.body.contact.id, userId: hal.user.id });
    await roundTrip(out);
    const mentions = outSeen.seen.filter((x) => JSON.stringify(x.payload).includes(hal.user.id));
    expect(mentions).toEqual([]);
  });
});

describe('typing', () => {
  it('relays typing to the other members’ sockets that have the conversation open, with the sender’s id', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const aOther = await connect(srv.url, alice.accessToken);
    const b = await connect(srv.url, bob.accessToken);
    const c = await connect(srv.url, carol.accessToken);
    const cElsewhere = await connect(srv.url, carol.accessToken);
    for (const s of [a, aOther, b, c]) expect(await ack(s, 'conversation:join', group)).toEqual({ ok: true });
    const aSeen = recorder(a);
    const ownSeen = recorder(aOther);
    const elsewhereSeen = recorder(cElsewhere);
    const out = await connect(srv.url, outsider.accessToken);
    const outSeen = recorder(out);
    const atBob = next(b, 'conversation:typing');
    const atCarol = next(c, 'conversation:typing');
    expect(await ack(a, 'conversation:typing', { conversationId: group, typing: true })).toEqual({ ok: true });
    expect(await atBob).toEqual({ conversationId: group, userId: alice.user.id, typing: true });
    expect(await atCarol).toEqual({ conversationId: group, userId: alice.user.id, typing: true });
    // Typing-off within the throttle interval arrives when the interval ends.
    const bSeen = recorder(b);
    const off = next(b, 'conversation:typing', (p) => p.typing === false);
    await ack(a, 'conversation:typing', { conversationId: group, typing: false });
    clock.advance(TIMINGS.typingIdleMs - 1);
    await roundTrip(b);
    expect(bSeen.events()).not.toContain('conversation:typing');
    clock.advance(1);
    await off;
    await Promise.all([a, aOther, cElsewhere, out].map(roundTrip));
    expect(aSeen.events()).not.toContain('conversation:typing');
    // The typist's other tab, and a tab of a member that does not show the conversation, get nothing.
    expect(ownSeen.events()).not.toContain('conversation:typing');
    expect(elsewhereSeen.events()).not.toContain('conversation:typing');
    expect(outSeen.events()).not.toContain('conversation:typing');
  });

  it('refuses typing from a non-member and invalid payloads, relaying nothing', async () => {
    const out = await connect(srv.url, outsider.accessToken);
    const b = await connect(srv.url, bob.accessToken);
    const bSeen = recorder(b);
    const r1 = await ack(out, 'conversation:typing', { conversationId: ab, typing: true });
    expect(r1.ok).toBe(false);
    for (const bad of [
      { conversationId: ab },
      { conversationId: ab, typing: 'yes' },
      'x',
      null,
      { conversationId: ab, typing: true, extra: 1 },
    ]) {
      const r = await ack(b, 'conversation:typing', bad);
      expect(r.ok, JSON.stringify(bad)).toBe(false);
      expect(typeof r.message).toBe('string');
    }
    expect((await ack(b, 'conversation:join', { id: ab })).ok).toBe(false);
    expect((await ack(b, 'no:such:event', {})).ok).toBe(false);
    await roundTrip(b);
    expect(bSeen.events()).not.toContain('conversation:typing');
  });
});

describe('presence', () => {
  it('goes ONLINE with the first tab and OFFLINE with lastSeenAt when the last tab closes', async () => {
    const watcher = await connect(srv.url, alice.accessToken);
    const dan = await api.user('dan');
    await befriend(api, alice, dan);
    const online = next(watcher, 'presence:update', (p) => p.userId === dan.user.id);
    const tab1 = await connect(srv.url, dan.accessToken);
    expect(await online).toMatchObject({ userId: dan.user.id, status: 'ONLINE' });
    const seen = recorder(watcher);
    const tab2 = await connect(srv.url, dan.accessToken);
    const contacts = await api.get('/api/contacts?filter=accepted', alice.accessToken);
    const danContact = contacts.body.contacts.find((c: { friend: { id: string } }) => c.friend.id === dan.user.id);
    expect(danContact.friend.status).toBe('ONLINE');
    tab1.disconnect();
    const offline = next(watcher, 'presence:update', (p) => p.userId === dan.user.id);
    tab2.disconnect();
    const off = await offline;
    expect(off.status).toBe('OFFLINE');
    // Another tab was still open when the first closed: nothing changed then. The last tab's OFFLINE is the barrier:
    // presence work for one user runs in order, so what the first close had announced would have come before it.
    expect(seen.seen.filter((s) => (s.payload as { userId?: string })?.userId === dan.user.id)).toEqual([
      { event: 'presence:update', payload: off },
    ]);
    expect(Date.now() - Date.parse(off.lastSeenAt)).toBeLessThan(5000);
    const after = await api.get('/api/contacts?filter=accepted', alice.accessToken);
    const danAfter = after.body.contacts.find((c: { friend: { id: string } }) => c.friend.id === dan.user.id);
    expect(danAfter.friend.status).toBe('OFFLINE');
    expect(danAfter.friend.lastSeenAt).toBe(off.lastSeenAt);
  });

  it('shows the chosen AWAY status and keeps an invisible (OFFLINE) user hidden', async () => {
    const watcher = await connect(srv.url, alice.accessToken);
    const fay = await api.user('fay');
    await befriend(api, alice, fay);
    await api.patch('/api/status/me', { status: 'AWAY' }, fay.accessToken);
    const away = next(watcher, 'presence:update', (p) => p.userId === fay.user.id);
    const s = await connect(srv.url, fay.accessToken);
    expect((await away).status).toBe('AWAY');
    s.disconnect();
    await next(watcher, 'presence:update', (p) => p.userId === fay.user.id && p.status === 'OFFLINE');
    await api.patch('/api/status/me', { status: 'OFFLINE' }, fay.accessToken);
    const seen = recorder(watcher);
    const connected = presence.changed(fay.user.id);
    const s2 = await connect(srv.url, fay.accessToken);
    await connected;
    const disconnected = presence.changed(fay.user.id);
    s2.disconnect();
    await disconnected;
    // The presence work of both is done, and an update it sent the watcher was written in that same step: a round
    // trip on the watcher, answered later, comes after it.
    await roundTrip(watcher);
    expect(
      seen.seen.filter(
        (x) => x.event === 'presence:update' && (x.payload as { userId: string }).userId === fay.user.id,
      ),
    ).toEqual([]);
  });
});

describe('calls', () => {
  let a: Socket;
  let b: Socket;
  let c: Socket;
  let out: Socket;
  let outSeen: ReturnType<typeof recorder>;
  const setup = async () => {
    a = await connect(srv.url, alice.accessToken);
    b = await connect(srv.url, bob.accessToken);
    c = await connect(srv.url, carol.accessToken);
    out = await connect(srv.url, outsider.accessToken);
    outSeen = recorder(out);
  };

  it('invites the other members, relays accept and end', async () => {
    await setup();
    const incoming = next(b, 'call:incoming');
    const aSeen = recorder(a);
    const cSeen = recorder(c);
    expect(await ack(a, 'call:invite', { conversationId: ab, video: true })).toEqual({ ok: true });
    expect(await incoming).toEqual({
      conversationId: ab,
      from: { id: alice.user.id, name: alice.user.displayName, avatarUrl: null },
      video: true,
    });
    const accepted = next(a, 'call:accepted');
    await ack(b, 'call:accept', { conversationId: ab, video: false });
    expect(await accepted).toEqual({
      conversationId: ab,
      from: { id: bob.user.id, name: bob.user.displayName, avatarUrl: null },
      video: false,
    });
    const ended = next(b, 'call:ended');
    await ack(a, 'call:end', { conversationId: ab });
    expect(await ended).toEqual({
      conversationId: ab,
      from: { id: alice.user.id, name: alice.user.displayName, avatarUrl: null },
    });
    await Promise.all([a, c, out].map(roundTrip));
    expect(aSeen.events()).not.toContain('call:incoming');
    expect(outSeen.events().filter((e) => e.startsWith('call:'))).toEqual([]);
    // carol is in the group, not in this direct conversation.
    expect(cSeen.events().filter((e) => e.startsWith('call:'))).toEqual([]);
  });

  it('relays a decline to the caller', async () => {
    await setup();
    const incoming = Promise.all([next(b, 'call:incoming'), next(c, 'call:incoming')]);
    await ack(a, 'call:invite', { conversationId: group, video: false });
    await incoming;
    const declined = next(a, 'call:declined');
    await ack(c, 'call:decline', { conversationId: group });
    expect(await declined).toEqual({
      conversationId: group,
      from: { id: carol.user.id, name: carol.user.displayName, avatarUrl: null },
    });
  });

  it('refuses call events from non-members and invalid payloads', async () => {
    await setup();
    const bSeen = recorder(b);
    for (const ev of ['call:invite', 'call:accept', 'call:decline', 'call:end']) {
      const r = await ack(out, ev, { conversationId: ab, video: true });
      expect(r.ok, ev).toBe(false);
    }
    expect((await ack(a, 'call:invite', { conversationId: ab })).ok).toBe(false);
    expect((await ack(a, 'call:invite', { conversationId: ab, video: 'yes' })).ok).toBe(false);
    await roundTrip(b);
    expect(bSeen.events().filter((e) => e.startsWith('call:'))).toEqual([]);
  });
});

describe('limits', () => {
  it('refuses a flood of events from one socket and relays only what fits the budget', async () => {
    const a = await connect(srv.url, alice.accessToken);
    const b = await connect(srv.url, bob.accessToken);
    expect(await ack(b, 'conversation:join', ab)).toEqual({ ok: true });
    const bSeen = recorder(b);
    const acks = await Promise.all(
      Array.from({ length: 80 }, (_, i) => ack(a, 'conversation:typing', { conversationId: ab, typing: i % 2 === 0 })),
    );
    const refused = acks.filter((x) => !x.ok);
    expect(refused.length).toBeGreaterThan(30);
    expect(refused[0].message).toMatch(/Слишком много/);
    // What was accepted is relayed at most once per typing interval: the first at once, the last state after it.
    clock.advance(TIMINGS.typingIdleMs);
    await roundTrip(b);
    const relayed = bSeen.seen
      .filter((e) => e.event === 'conversation:typing')
      .map((e) => (e.payload as { typing: boolean }).typing);
    expect(relayed).toEqual([true, false]);
  });

  it('refuses frames over 64 KB by closing the socket', async () => {
    const s = await connect(srv.url, alice.accessToken);
    const closed = new Promise<string>((resolve) => s.on('disconnect', (reason) => resolve(reason)));
    s.emit('conversation:typing', { conversationId: 'x'.repeat(70 * 1024), typing: true });
    expect(await closed).toMatch(/transport close|transport error/);
    // A normal frame still works on a fresh socket.
    const s2 = await connect(srv.url, alice.accessToken);
    expect((await ack(s2, 'conversation:join', ab)).ok).toBe(true);
  });
});
