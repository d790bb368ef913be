// GET /api/health/ready: 200 when the database, upload storage and (when configured) Redis answer; 503 naming the
// check that failed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../server/db/upgrade';
import { RELEASE_VERSION } from '../../server/version';
import { failingRedis } from './failing-redis';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';

/** The release and the schema, in every answer. */
const version = { release: RELEASE_VERSION, schema: SCHEMA_VERSION };

const redisUp = await redisAvailable();
let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

describe('GET /api/health/ready', () => {
  it('answers 200 with every check ok, and leaves no probe behind', async () => {
    const res = await client(srv.url).get('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, checks: { database: 'ok', storage: 'ok' }, version });
    expect(fs.readdirSync(path.join(srv.config.dataDir, 'uploads'))).toEqual([]);
    // Liveness stays as it was.
    expect((await client(srv.url).get('/api/health')).body).toEqual({ ok: true });
  });

  it('answers 503 naming storage when uploads cannot be written', async () => {
    const dir = path.join(srv.config.dataDir, 'uploads');
    // A file where the directory was: writing fails even for root, whom permissions would not stop.
    fs.rmSync(dir, { recursive: true });
    fs.writeFileSync(dir, 'not a directory');
    try {
      const res = await client(srv.url).get('/api/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        ok: false,
        checks: { database: 'ok', storage: 'Хранилище файлов недоступно' },
        version,
      });
    } finally {
      fs.rmSync(dir);
      fs.mkdirSync(dir);
    }
    expect((await client(srv.url).get('/api/health/ready')).status).toBe(200);
  });

  it('answers 503 naming Redis when Redis fails', async () => {
    const redis = await failingRedis();
    const broken = await startTestServer({ redisUrl: redis.url });
    try {
      const res = await client(broken.url).get('/api/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        ok: false,
        checks: { database: 'ok', storage: 'ok', redis: 'Redis недоступен' },
        version,
      });
    } finally {
      await broken.close();
      await redis.close();
    }
  }, 20_000);

  it.runIf(redisUp)('checks a working Redis', async () => {
    const withRedis = await startTestServer({ redisUrl });
    try {
      const res = await client(withRedis.url).get('/api/health/ready');
      expect(res.status).toBe(200);
      expect(res.body.checks).toEqual({ database: 'ok', storage: 'ok', redis: 'ok' });
    } finally {
      await withRedis.close();
    }
  });
});
