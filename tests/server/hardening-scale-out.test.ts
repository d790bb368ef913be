// Socket lifetime across two server processes sharing a database and Redis: a logout through one closes that
// session's sockets on the other, and the per-user socket cap counts sockets on both. Runs when Redis answers
// (TEST_REDIS_URL, default redis://127.0.0.1:6379); with TEST_REDIS_URL set an unreachable Redis fails the suite.
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKETS_PER_USER_MAX } from '../../server/realtime/socket-sessions';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { type ManualClock, manualClock } from './manual-clock';
import { type Api, closeAll, connect, next, roundTrip } from './socket-helpers';

const available = await redisAvailable();

describe.skipIf(!available)('socket lifetime on two servers behind Redis', () => {
  let one: TestServer;
  let two: TestServer;
  let api1: Api;
  // One clock for both processes, as their system clocks would agree.
  let clock: ManualClock;

  beforeAll(async () => {
    clock = manualClock();
    one = await startTestServer({ redisUrl }, { clock });
    two = await startTestServer(
      { redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl },
      { clock },
    );
    api1 = client(one.url);
  });
  afterAll(async () => {
    closeAll();
    await two?.close();
    await one?.close();
  });

  it('a logout through one server closes that session’s sockets on the other', async () => {
    const alice = await api1.user('alice');
    const again = await api1.post('/api/auth/login', { username: alice.username, password: alice.password });
    const onTwo = await connect(two.url, alice.accessToken);
    const onOne = await connect(one.url, alice.accessToken);
    const otherSession = await connect(two.url, again.body.accessToken);
    const told = next(onTwo, 'session:closed');
    const gone = new Promise<string>((r) => onTwo.once('disconnect', r));
    expect((await api1.post('/api/auth/logout', { refreshToken: alice.refreshToken })).status).toBe(200);
    expect((await told).reason).toBe('logout');
    expect(await gone).toBe('io server disconnect');
    await expect.poll(() => onOne.connected, { timeout: 3000 }).toBe(false);
    await roundTrip(otherSession);
    expect(otherSession.connected).toBe(true);
    await expect(connect(two.url, alice.accessToken)).rejects.toThrow('Требуется вход');
  });

  it(`counts a user's sockets on both servers against the cap of ${SOCKETS_PER_USER_MAX}`, async () => {
    const bob = await api1.user('bob');
    const sockets: Socket[] = [];
    for (let i = 0; i < SOCKETS_PER_USER_MAX; i++) {
      sockets.push(await connect(one.url, bob.accessToken));
      clock.advance(5);
    }
    const told = next(sockets[0], 'session:closed');
    const newest = await connect(two.url, bob.accessToken);
    expect((await told).reason).toBe('tooManyConnections');
    await expect.poll(() => sockets[0].connected, { timeout: 3000 }).toBe(false);
    await Promise.all([...sockets.slice(1), newest].map(roundTrip));
    expect([...sockets.slice(1), newest].every((s) => s.connected)).toBe(true);
  });
});
