// Durability: the SQLite sync setting is what SQLITE_SYNCHRONOUS says, and a
// server killed with SIGKILL in the middle of a stream of sends loses none it acknowledged; after the restart
// every unanswered send retried with its clientMessageId is stored exactly once. The server runs in a child
// process on a data directory (and, with TEST_PG_URL, a PostgreSQL database) of this test's own.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { client, startTestServer, usingPostgres } from './harness';
import { type Api, befriend } from './socket-helpers';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('SQLITE_SYNCHRONOUS', () => {
  it('reads NORMAL by default, FULL when asked, and refuses anything else', () => {
    expect(loadConfig({}).sqliteSynchronous).toBe('NORMAL');
    expect(loadConfig({ SQLITE_SYNCHRONOUS: 'full' }).sqliteSynchronous).toBe('FULL');
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: 'OFF' })).toThrow(/SQLITE_SYNCHRONOUS/);
  });

  it.skipIf(usingPostgres())('is the synchronous mode the database file runs with', async () => {
    for (const [setting, code] of [
      ['NORMAL', 1],
      ['FULL', 2],
    ] as const) {
      const srv = await startTestServer({ sqliteSynchronous: setting });
      try {
        const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(srv.server.ctx.db);
        expect(rows[0]?.synchronous).toBe(code);
      } finally {
        await srv.close();
      }
    }
  });
});

/** A data directory (and PostgreSQL database) that outlives the server processes started on it. */
async function storage() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-crash-'));
  let databaseUrl = '';
  const admin = process.env.TEST_PG_URL;
  const name = `msg_crash_${randomBytes(6).toString('hex')}`;
  const adminQuery = async (q: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  if (admin) {
    await adminQuery(`CREATE DATABASE ${name}`);
    const u = new URL(admin);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
  }
  return {
    dataDir,
    databaseUrl,
    remove: async () => {
      if (admin) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startProcess(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'messaging-crash-server.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { proc, url: `http://127.0.0.1:${port}` };
}

const exited = (proc: ChildProcess) =>
  new Promise((r) => (proc.exitCode !== null || proc.signalCode ? r(null) : proc.once('exit', r)));

async function history(api: Api, conversationId: string, token: string) {
  const all: { id: string; clientMessageId: string | null }[] = [];
  let before = '';
  for (;;) {
    const page = await api.get(`/api/conversations/${conversationId}/messages?limit=200${before}`, token);
    expect(page.status).toBe(200);
    all.unshift(...page.body.messages);
    if (!page.body.hasMore) return all;
    before = `&before=${page.body.messages[0].id}`;
  }
}

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.each(usingPostgres() ? ['PostgreSQL'] : ['NORMAL', 'FULL'])('kill -9 under load (%s)', (mode) => {
  // Its own bound: up to 15 s of load, two server processes started (each compiles the server), then the checks;
  // at a load of 3 on two cores, with SQLITE_SYNCHRONOUS=FULL, that passed vitest's default 30 s.
  it('loses no acknowledged message and stores every retried one once', { timeout: 90_000 }, async () => {
    const store = await storage();
    cleanups.push(store.remove);
    const env = {
      DATA_DIR: store.dataDir,
      DATABASE_URL: store.databaseUrl,
      SQLITE_SYNCHRONOUS: mode === 'FULL' ? 'FULL' : 'NORMAL',
    };
    const first = await startProcess(env);
    cleanups.push(async () => first.proc.kill('SIGKILL'));
    let api = client(first.url);
    const [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
    await befriend(api, alice, bob);
    const conv = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body
      .conversation.id as string;

    // 16 senders, one send at a time each, until the process is killed under them.
    const acked = new Map<string, string>();
    /** Sends with no answer yet, and whose token sent them (a clientMessageId belongs to its sender). */
    const unanswered = new Map<string, string>();
    let killed = false;
    let n = 0;
    let enough: () => void = () => {};
    /** Resolves once 300 sends have been acknowledged. */
    const loaded = new Promise<void>((resolve) => {
      enough = resolve;
    });
    const sender = async (token: string) => {
      while (!killed) {
        const key = `crash-${n++}`;
        unanswered.set(key, token);
        const res = await api
          .post(
            '/api/conversations/send',
            { conversationId: conv, type: 'TEXT', content: `сообщение ${key}`, clientMessageId: key },
            token,
          )
          .catch(() => null);
        if (res?.status === 200) {
          acked.set(key, res.body.message.id);
          unanswered.delete(key);
          if (acked.size >= 300) enough();
        } else if (res) {
          throw new Error(`send answered ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, i) => sender(i % 2 ? alice.accessToken : bob.accessToken)));
    // Killed once 300 sends are acknowledged, or after 15 s of load at most on a slow machine (a bound on the load,
    // not a wait for something: at least 100 acknowledged are required below).
    const atMost = setTimeout(enough, 15_000);
    await loaded;
    clearTimeout(atMost);
    killed = true;
    first.proc.kill('SIGKILL');
    await load;
    await exited(first.proc);
    expect(acked.size).toBeGreaterThanOrEqual(100);

    const second = await startProcess(env);
    cleanups.push(async () => {
      second.proc.kill('SIGTERM');
      await exited(second.proc);
    });
    api = client(second.url);
    const stored = await history(api, conv, alice.accessToken);
    const ids = new Set(stored.map((m) => m.id));
    const lost = [...acked.values()].filter((id) => !ids.has(id));
    expect(lost).toEqual([]);

    // The sends cut off by the kill, retried: stored once, whether or not they had reached the database.
    for (const [key, token] of unanswered) {
      const res = await api.post(
        '/api/conversations/send',
        { conversationId: conv, type: 'TEXT', content: `сообщение ${key}`, clientMessageId: key },
        token,
      );
      expect(res.status).toBe(200);
    }
    const after = await history(api, conv, alice.accessToken);
    const perKey = new Map<string, number>();
    for (const m of after)
      if (m.clientMessageId) perKey.set(m.clientMessageId, (perKey.get(m.clientMessageId) ?? 0) + 1);
    expect([...perKey.values()].every((c) => c === 1)).toBe(true);
    expect(perKey.size).toBe(acked.size + unanswered.size);
  });
});
