// Web Push with two server processes sharing one database and one Redis: a message is pushed once (by the process
// that stored it), and not at all while the recipient has a socket on the other process. Runs when Redis answers
// (redis-probe.ts), like tests/server/scale-out.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type PushService, startPushService, subscriberKeys } from './push-service';
import { redisAvailable, redisUrl } from './redis-probe';
import { type Api, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

const available = await redisAvailable();

describe.skipIf(!available)('Web Push across two servers behind Redis', () => {
  let one: TestServer;
  let two: TestServer;
  let api1: Api;
  let ps: PushService;
  let alice: TestUser;
  let bob: TestUser;
  let conv: string;
  const path = '/push/bob';
  const sub = subscriberKeys();

  beforeAll(async () => {
    one = await startTestServer({ redisUrl, pushAllowLoopback: true });
    two = await startTestServer({
      redisUrl,
      pushAllowLoopback: true,
      dataDir: one.config.dataDir,
      databaseUrl: one.config.databaseUrl,
    });
    api1 = client(one.url);
    ps = await startPushService();
    [alice, bob] = await Promise.all([api1.user('alice'), api1.user('bob')]);
    await befriend(api1, alice, bob);
    conv = (await api1.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation
      .id;
    const r = await client(two.url).post(
      '/api/push/subscribe',
      { endpoint: ps.url + path, keys: sub.keys, showText: true },
      bob.accessToken,
    );
    expect(r.status).toBe(200);
  });
  afterAll(async () => {
    closeAll();
    await two?.close();
    await one?.close();
    await ps?.close();
  });

  it('does not push while the recipient has a socket on the other server', async () => {
    const b = await connect(two.url, bob.accessToken);
    // Presence crosses Redis: server one must know bob is online before the send asks it.
    await vi.waitFor(() => expect(one.server.ctx.realtime.isOnline(bob.user.id)).toBe(true), { timeout: 5_000 });
    const heard = next(b, 'message:notify');
    expect(
      (
        await api1.post(
          '/api/conversations/send',
          { conversationId: conv, type: 'TEXT', content: 'ты в сети' },
          alice.accessToken,
        )
      ).status,
    ).toBe(200);
    await heard;
    await Promise.all([one.server.ctx.push.settled(), two.server.ctx.push.settled()]);
    expect(ps.requests).toEqual([]);
    b.disconnect();
  });

  it('pushes a message once when the recipient has no socket anywhere', async () => {
    // Presence crosses Redis: wait until server one no longer sees bob online.
    await vi.waitFor(() => expect(one.server.ctx.realtime.isOnline(bob.user.id)).toBe(false), { timeout: 5_000 });
    expect(
      (
        await api1.post(
          '/api/conversations/send',
          { conversationId: conv, type: 'TEXT', content: 'один раз' },
          alice.accessToken,
        )
      ).status,
    ).toBe(200);
    const req = await ps.nth(path, 1);
    expect(JSON.parse(sub.decrypt(req.body))).toMatchObject({ conversationId: conv, preview: 'один раз', count: 1 });
    await Promise.all([one.server.ctx.push.settled(), two.server.ctx.push.settled()]);
    expect(ps.requests).toHaveLength(1);
  });
});
