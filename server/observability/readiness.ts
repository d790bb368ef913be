// GET /api/health/ready: whether this process can serve — the database answers a trivial query, upload storage
// takes, gives back and removes a small probe, and Redis (when configured) answers a ping. Each check has a short
// time limit, so a hung dependency fails readiness instead of hanging the load balancer's probe. 200 when all
// pass, 503 naming what failed. GET /api/health stays the cheap liveness ping.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { SCHEMA_VERSION } from '../db/upgrade';
import { contractRoute } from '../http/contract-route';
import type { UploadStorage } from '../uploads/storage';
import { RELEASE_VERSION } from '../version';

/** How long one check may take before it counts as failed. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

export const CHECK_OK = 'ok';
export const DATABASE_DOWN = 'База данных недоступна';
export const STORAGE_DOWN = 'Хранилище файлов недоступно';
export const REDIS_DOWN = 'Redis недоступен';

/** 'ok', or `failure` when `check` throws or outlasts the time limit. */
async function checked(check: () => Promise<unknown>, failure: string): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), READY_CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), late]);
    return CHECK_OK;
  } catch {
    return failure;
  } finally {
    clearTimeout(timer);
  }
}

/** Writes, reads back and removes a probe key: a read-only or full volume, or an unreachable bucket, fails. */
async function probeStorage(storage: UploadStorage): Promise<void> {
  const key = `readiness-probe-${randomUUID()}`;
  const body = `ready ${key}`;
  try {
    await storage.write(key, Readable.from([Buffer.from(body)]));
    const stream = await storage.read(key);
    if (!stream || (await text(stream)) !== body) throw new Error('probe read back differs');
  } finally {
    await storage.remove(key).catch(() => {});
  }
}

export const readinessRoute = fp<{ uploads: UploadStorage }>(
  async (app, { uploads }) => {
    const { db, realtime, config } = app;
    contractRoute(app, 'healthReady', async ({ reply }) => {
      const [database, storage, redis] = await Promise.all([
        checked(() => sql`SELECT 1`.execute(db), DATABASE_DOWN),
        checked(() => probeStorage(uploads), STORAGE_DOWN),
        config.redisUrl ? checked(() => realtime.pingRedis(), REDIS_DOWN) : undefined,
      ]);
      const checks = { database, storage, ...(redis === undefined ? {} : { redis }) };
      const ok = Object.values(checks).every((c) => c === CHECK_OK);
      // The 503 answer has no schema of its own: it is this same, fully built object.
      if (!ok) reply.status(503);
      // The server started only on a database at this release's schema (server/db/upgrade.ts).
      return { ok, checks, version: { release: RELEASE_VERSION, schema: SCHEMA_VERSION } };
    });
  },
  {
    name: 'readiness',
    decorators: { fastify: ['config', 'db', 'realtime'] },
    dependencies: ['base', 'realtime'],
  },
);
