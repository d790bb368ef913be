// Two server processes' worth of servers sharing one database and one Redis (the socket.io Redis adapter):
// events and presence cross between them. Runs when Redis answers at redis://127.0.0.1:6379; with TEST_REDIS_URL
// set, Redis is required there and an unreachable one fails the suite instead of skipping it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { type Api, ack, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

const available = await redisAvailable();

describe.skipIf(!available)('two servers behind Redis', () => {
  let one: TestServer;
  let two: TestServer;
  let api1: Api;
  let api2: Api;
  let alice: TestUser;
  let bob: TestUser;
  let conv: string;

  beforeAll(async () => {
    one = await startTestServer({ redisUrl });
    // Same data directory (secrets, SQLite file) and same database: one deployment, two processes.
    two = await startTestServer({ redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl });
    api1 = client(one.url);
    api2 = client(two.url);
    [alice, bob] = await Promise.all([api1.user('alice'), api1.user('bob')]);
    await befriend(api1, alice, bob);
    conv = (await api1.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation
      .id;
  });
  /**
   * Resolves once `to` has handled a notice that `from` publishes now: the notices between processes share one
   * Redis channel, in order, so whatever `from` published before (a presence change) has been handled too.
   */
  let barriers = 0;
  const crossed = (from: TestServer, to: TestServer) =>
    new Promise<void>((resolve) => {
      const name = `test:barrier:${++barriers}`;
      to.server.ctx.realtime.peers?.on(name, () => resolve());
      from.server.ctx.realtime.peers?.emit(name);
    });

  afterAll(async () => {
    closeAll();
    // The second shares the first's database and directory: close it first (it drops only its own unused database).
    await two?.close();
    await one?.close();
  });

  it("refuses a signed-out sign-in's access token on the other server at once", async () => {
    const u = await api1.user('carl');
    expect((await api2.get('/api/conversations', u.accessToken)).status).toBe(200);
    expect((await api1.post('/api/auth/logout', { refreshToken: u.refreshToken })).status).toBe(200);
    // The notice travels through Redis; the sign-out answered after publishing it.
    await expect
      .poll(async () => (await api2.get('/api/conversations', u.accessToken)).status, { timeout: 2000 })
      .toBe(401);
  });

  it('ending a sign-in from «Устройства» on one server closes its socket and refuses its token on the other', async () => {
    const u = await api1.user('dina');
    const lost = (await api2.post('/api/auth/login', { username: u.username, password: u.password })).body;
    const socketOnTwo = await connect(two.url, lost.accessToken);
    const closed = next(socketOnTwo, 'session:closed');
    const listed = (await api1.get('/api/auth/sessions', u.accessToken)).body.sessions as {
      id: string;
      current: boolean;
    }[];
    const id = listed.find((s) => !s.current)?.id as string;
    expect((await api1.call('DELETE', `/api/auth/sessions/${id}`, { token: u.accessToken })).status).toBe(200);
    await closed;
    await expect
      .poll(async () => (await api2.get('/api/conversations', lost.accessToken)).status, { timeout: 2000 })
      .toBe(401);
  });

  it('delivers a message sent through one server to a socket on the other', async () => {
    const bobOnTwo = await connect(two.url, bob.accessToken);
    const bobElsewhere = await connect(two.url, bob.accessToken);
    expect(await ack(bobOnTwo, 'conversation:join', conv)).toEqual({ ok: true });
    const live = next(bobOnTwo, 'message:new');
    const notify = next(bobElsewhere, 'message:notify');
    const seen = recorder(bobOnTwo);
    const sent = await api1.post(
      '/api/conversations/send',
      { conversationId: conv, type: 'TEXT', content: 'через Redis' },
      alice.accessToken,
    );
    expect(sent.status).toBe(200);
    expect((await live).message.id).toBe(sent.body.message.id);
    expect((await notify).message.id).toBe(sent.body.message.id);
    // The joined socket gets message:new only (the room exception crosses Redis too). Server two wrote the notice
    // to bob's sockets at once (bobElsewhere has it), so a round trip on bobOnTwo answered later comes after it.
    await roundTrip(bobOnTwo);
    expect(seen.events()).not.toContain('message:notify');
    bobOnTwo.disconnect();
    bobElsewhere.disconnect();
  });

  it('relays typing and calls across servers', async () => {
    const a = await connect(one.url, alice.accessToken);
    const b = await connect(two.url, bob.accessToken);
    expect(await ack(b, 'conversation:join', conv)).toEqual({ ok: true });
    const typing = next(b, 'conversation:typing');
    await ack(a, 'conversation:typing', { conversationId: conv, typing: true });
    expect(await typing).toEqual({ conversationId: conv, userId: alice.user.id, typing: true });
    const incoming = next(b, 'call:incoming');
    await ack(a, 'call:invite', { conversationId: conv, video: false });
    expect((await incoming).from.id).toBe(alice.user.id);
    a.disconnect();
    b.disconnect();
  });

  it('counts a user online while any server holds one of their sockets', async () => {
    const watcher = await connect(one.url, alice.accessToken);
    const status = async (api: Api) => {
      const res = await api.get('/api/contacts?filter=accepted', alice.accessToken);
      return res.body.contacts.find((c: { friend: { id: string } }) => c.friend.id === bob.user.id).friend.status;
    };
    const online = next(watcher, 'presence:update', (p) => p.userId === bob.user.id && p.status === 'ONLINE');
    const onTwo = await connect(two.url, bob.accessToken);
    await online;
    expect(await status(api1)).toBe('ONLINE');
    const onOne = await connect(one.url, bob.accessToken);
    // Server two has heard that server one holds a socket of bob's (published when it connected).
    await crossed(one, two);
    const held = two.server.ctx.realtime.localSockets();
    onTwo.disconnect();
    // Server two has handled the disconnect (its socket count and presence change together, at once).
    await vi.waitFor(() => expect(two.server.ctx.realtime.localSockets()).toBe(held - 1));
    // Still connected through server one.
    expect(await status(api1)).toBe('ONLINE');
    expect(await status(api2)).toBe('ONLINE');
    const offline = next(watcher, 'presence:update', (p) => p.userId === bob.user.id && p.status === 'OFFLINE');
    onOne.disconnect();
    expect((await offline).lastSeenAt).toBeTruthy();
    // Server two learns of it over Redis.
    await expect.poll(() => status(api2)).toBe('OFFLINE');
  });

  it('drops a list cached on one server when a change commits on the other', async () => {
    type Entry = {
      conversation: {
        id: string;
        messages: { id: string }[];
        participants: { user: { id: string; status: string } }[];
      };
    };
    const listOnOne = async () =>
      (await api1.get('/api/conversations', alice.accessToken)).body.conversations as Entry[];
    const eventually = (check: (l: Entry[]) => unknown, expected: unknown) =>
      vi.waitFor(async () => expect(check(await listOnOne())).toBe(expected), { timeout: 3000 });
    const latest = (l: Entry[]) => l.find((e) => e.conversation.id === conv)?.conversation.messages[0]?.id;
    const bobStatus = (l: Entry[]) =>
      l.find((e) => e.conversation.id === conv)?.conversation.participants.find((p) => p.user.id === bob.user.id)?.user
        .status;
    await listOnOne();
    const hits = one.server.ctx.lists.stats().hits;
    await listOnOne();
    expect(one.server.ctx.lists.stats().hits).toBe(hits + 1);

    const sent = await api2.post(
      '/api/conversations/send',
      { conversationId: conv, type: 'TEXT', content: 'мимо кэша' },
      bob.accessToken,
    );
    await eventually(latest, sent.body.message.id);

    await listOnOne();
    const onTwo = await connect(two.url, bob.accessToken);
    await eventually(bobStatus, 'ONLINE');
    onTwo.disconnect();
    await eventually(bobStatus, 'OFFLINE');
  });

  it('a member removed through one server, whose socket lives on the other, gets nothing of the group afterwards', async () => {
    const carl = await api1.user('carl');
    await befriend(api1, alice, carl);
    const gid = (
      await api1.post(
        '/api/conversations',
        { participantIds: [bob.user.id, carl.user.id], title: 'Семья', isGroup: true },
        alice.accessToken,
      )
    ).body.conversation.id;
    // Process two has read the members (its cache holds bob) and bob's socket there has the group open.
    expect((await api2.get(`/api/conversations/${gid}/messages`, bob.accessToken)).status).toBe(200);
    const bobOnTwo = await connect(two.url, bob.accessToken);
    expect(await ack(bobOnTwo, 'conversation:join', gid)).toEqual({ ok: true });
    const removed = next(bobOnTwo, 'conversation:removed');
    const seen = recorder(bobOnTwo);
    const res = await api1.post(
      '/api/conversations/members/remove',
      { conversationId: gid, userId: bob.user.id },
      alice.accessToken,
    );
    expect(res.status).toBe(200);
    expect((await removed).conversationId).toBe(gid);
    // Sent through the other process, whose membership cache heard the change.
    await expect
      .poll(async () => (await api2.get(`/api/conversations/${gid}/messages`, bob.accessToken)).status, {
        timeout: 2000,
      })
      .toBe(404);
    const sent = await api2.post(
      '/api/conversations/send',
      { conversationId: gid, type: 'TEXT', content: 'без Бориса' },
      carl.accessToken,
    );
    expect(sent.status).toBe(200);
    expect(
      (
        await api2.post(
          '/api/conversations/send',
          { conversationId: gid, type: 'TEXT', content: 'я тут' },
          bob.accessToken,
        )
      ).status,
    ).toBe(404);
    await roundTrip(bobOnTwo);
    expect(seen.events().filter((e) => e.startsWith('message:'))).toEqual([]);
  });

  it('a block made through one server stops sends through the other at once', async () => {
    const [u1, u2] = await Promise.all([api1.user('eva'), api1.user('fedor')]);
    await befriend(api1, u1, u2);
    const c = (await api1.post('/api/conversations/with', { userId: u2.user.id }, u1.accessToken)).body.conversation.id;
    const sendOnTwo = () =>
      api2.post('/api/conversations/send', { conversationId: c, type: 'TEXT', content: 'привет' }, u2.accessToken);
    expect((await sendOnTwo()).status).toBe(200);
    expect((await api1.post('/api/users/block', { userId: u2.user.id }, u1.accessToken)).status).toBe(200);
    await expect.poll(async () => (await sendOnTwo()).status, { timeout: 2000 }).toBe(403);
  });
});
