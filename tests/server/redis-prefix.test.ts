// Two deployments on one Redis (REDIS_PREFIX): each hears only its own processes. With the same prefix a process of
// the other deployment takes a user of this one for online (the probe below); with their own prefixes it does not,
// while this deployment's second process does. Runs when Redis answers (redis-probe.ts).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { closeAll, connect, type TestUser } from './socket-helpers';

const available = await redisAvailable();

describe.skipIf(!available)('REDIS_PREFIX: deployments sharing one Redis', () => {
  const ours = `deployment-${randomBytes(4).toString('hex')}`;
  const theirs = `deployment-${randomBytes(4).toString('hex')}`;
  let x1: TestServer;
  let x2: TestServer;
  let other: TestServer;
  let sameName: TestServer;
  let anna: TestUser;

  beforeAll(async () => {
    x1 = await startTestServer({ redisUrl, redisPrefix: ours });
    x2 = await startTestServer({
      redisUrl,
      redisPrefix: ours,
      dataDir: x1.config.dataDir,
      databaseUrl: x1.config.databaseUrl,
    });
    // Two more deployments, each with its own database: one named apart, one (wrongly) under the same prefix.
    other = await startTestServer({ redisUrl, redisPrefix: theirs });
    sameName = await startTestServer({ redisUrl, redisPrefix: ours });
    anna = await client(x1.url).user('anna');
  });
  afterAll(async () => {
    closeAll();
    for (const s of [sameName, other, x2, x1]) await s?.close();
  });

  it('a user online on one process of a deployment is online on its other process, and only there', async () => {
    await connect(x1.url, anna.accessToken);
    await vi.waitFor(() => expect(x2.server.ctx.realtime.isOnline(anna.user.id)).toBe(true), { timeout: 10_000 });
    // The deployment under the same prefix heard it by now (the same publish reached x2); the one apart did not.
    await vi.waitFor(() => expect(sameName.server.ctx.realtime.isOnline(anna.user.id)).toBe(true), {
      timeout: 10_000,
    });
    expect(other.server.ctx.realtime.isOnline(anna.user.id)).toBe(false);
  });
});

// The setting itself needs no Redis: it runs on every machine.
describe('REDIS_PREFIX', () => {
  it('refuses a prefix Redis channels should not carry, in Russian', () => {
    expect(() => loadConfig({ REDIS_PREFIX: 'моя беседа' })).toThrow(/^Неверное значение REDIS_PREFIX: «моя беседа»/);
    expect(loadConfig({}).redisPrefix).toBe('socket.io');
    expect(loadConfig({ REDIS_PREFIX: 'chat.example.org' }).redisPrefix).toBe('chat.example.org');
  });
});
