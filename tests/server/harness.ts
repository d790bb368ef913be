// Starts the real server on a free port with a temporary data directory. With TEST_PG_URL set
// (CI's second run), each server gets a fresh PostgreSQL database that is dropped on close; with TEST_S3=1, its own
// s3rver bucket for uploads and export archives (s3.ts).
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createServer, type Server, type ServerOptions } from '../../server/app';
import { BACKUPS_OFF } from '../../server/backups/schedule';
import { type Config, loadConfig } from '../../server/config';
import { storagesFor } from '../../server/uploads/storage-for';
import { startS3, usingS3 } from './s3';

export interface TestServer {
  url: string;
  port: number;
  /** The running server (a new one after `restart`). */
  server: Server;
  config: Config;
  /** Closes the server as a restart does (gracefully), keeping its port, data directory and database. */
  stop(): Promise<void>;
  /** Starts a new server after `stop`, on the same port, data directory and database. */
  start(options?: ServerOptions): Promise<void>;
  close(): Promise<void>;
}

export const usingPostgres = () => Boolean(process.env.TEST_PG_URL);

export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_PG_URL as string;
  const name = `msg_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestOptions {
  /** The address the server is given for its fresh PostgreSQL database, from the real one (a proxy in between). */
  databaseVia?: (url: string) => string;
}

export async function startTestServer(
  overrides: Partial<Config> = {},
  options: ServerOptions = {},
  test: TestOptions = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-test-'));
  const pgdb = usingPostgres() ? await freshPostgres() : null;
  const s3 = usingS3() && overrides.s3 === undefined ? await startS3() : null;
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl: pgdb ? (test.databaseVia?.(pgdb.url) ?? pgdb.url) : null,
      port: 0,
      host: '127.0.0.1',
      clientDir: null,
      logLevel: 'silent',
      s3: s3?.settings ?? null,
      // Off unless a test turns it on: test servers' data directories are thrown away.
      backup: BACKUPS_OFF,
      ...overrides,
    },
  );
  // Servers of one test that share a database are one deployment; every other test server on this Redis is another
  // (two vitest workers run test files side by side): each deployment its own channels, as REDIS_PREFIX gives in
  // production, or one test's servers hear another's presence and wait for its answers.
  if (config.redisUrl && overrides.redisPrefix === undefined)
    config.redisPrefix = `test-${createHash('sha256')
      .update(config.databaseUrl ?? config.dataDir)
      .digest('hex')
      .slice(0, 16)}`;
  const server = await createServer(config, options).catch(async (err) => {
    await pgdb?.drop();
    await s3?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = server.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const srv: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    config,
    stop: () => srv.server.close(),
    start: async (next = options) => {
      srv.server = await createServer(config, next);
      await srv.server.app.listen({ port, host: '127.0.0.1' });
    },
    close: async () => {
      await srv.server.close();
      await pgdb?.drop();
      await s3?.close();
      // Retries: a WAL checkpoint or an upload finishing can add a file while the directory is being removed.
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
  return srv;
}

/** Read through the storage the server itself uses (DATA_DIR or the S3 bucket): its upload keys. */
export async function storedUploads(srv: TestServer): Promise<string[]> {
  const storages = storagesFor(srv.config);
  try {
    const keys: string[] = [];
    for await (const key of storages.uploads.keys()) keys.push(key);
    return keys;
  } finally {
    storages.close();
  }
}

/** One stored upload's bytes, read the way the server reads them. */
export async function storedUpload(srv: TestServer, key: string): Promise<Buffer> {
  const storages = storagesFor(srv.config);
  try {
    const body = await storages.uploads.read(key);
    if (!body) throw new Error(`upload ${key} is not stored`);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    storages.close();
  }
}

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A tiny HTTP client over fetch: JSON in, JSON out, optional bearer token, raw bodies for malformed-input tests. */
export function client(base: string) {
  async function call<T = any>(
    method: string,
    p: string,
    opts: { body?: unknown; token?: string; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<Res<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      headers['content-type'] ??= 'application/json';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(base + p, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* non-JSON body stays text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  let n = 0;
  return {
    call,
    get: <T = any>(p: string, token?: string) => call<T>('GET', p, { token }),
    post: <T = any>(p: string, body: unknown, token?: string) => call<T>('POST', p, { body, token }),
    patch: <T = any>(p: string, body: unknown, token?: string) => call<T>('PATCH', p, { body, token }),
    /** Registers and signs in a fresh user; returns its tokens and user. */
    async user(prefix = 'user') {
      const username = `${prefix}${Date.now().toString(36)}${(n++).toString(36)}${randomBytes(2).toString('hex')}`;
      const password = 'correct horse battery';
      const reg = await call('POST', '/api/auth/register', {
        body: { username, displayName: `${prefix} ${n}`, password },
      });
      if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
      const login = await call('POST', '/api/auth/login', { body: { username, password } });
      if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
      return { username, password, ...login.body } as {
        username: string;
        password: string;
        accessToken: string;
        refreshToken: string;
        user: { id: string; eblid: string; username: string; displayName: string };
      };
    },
  };
}
