// Whether the Redis of the scale-out suites answers. They run when it does (TEST_REDIS_URL, default
// redis://127.0.0.1:6379); with TEST_REDIS_URL set, an unreachable Redis fails the suite instead of skipping it.
import { Redis } from 'ioredis';

export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const r = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** True when Redis answers; throws when TEST_REDIS_URL names a Redis that does not. */
export async function redisAvailable(): Promise<boolean> {
  const available = await redisReachable();
  if (!available && process.env.TEST_REDIS_URL) throw new Error(`Redis is required at TEST_REDIS_URL=${redisUrl}`);
  return available;
}
