// SQLite under pressure (docs/behaviour.md §10.22 Database outage): a full disk refuses writes with 507 while reads go
// on, and writes come back once space does; a lock held by another connection past SQLITE_BUSY_TIMEOUT_MS is a
// 503 the client may retry; after a burst the write-ahead log shrinks back to journal_size_limit. SQLite only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { JOURNAL_SIZE_LIMIT_BYTES } from '../../server/db/checkpointer';
import { sqliteHandle } from '../../server/db/database';
import { DATABASE_UNAVAILABLE, STORAGE_FULL } from '../../server/db/unavailable';
import { STORAGE_DOWN } from '../../server/observability/readiness';
import { client, startTestServer, type TestServer, usingPostgres } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

/**
 * A disk that fills up. As root, a real one: a small tmpfs mounted under the data directory, filled with a file
 * until the kernel answers ENOSPC, and emptied by deleting that file. Without the right to mount, SQLite's own
 * limit: `PRAGMA max_page_count` at the current size makes the engine itself fail every write that would grow the
 * database with SQLITE_FULL, the error a full disk gives, and raising it again is space coming back.
 */
interface FullDisk {
  kind: 'tmpfs' | 'max_page_count';
  dataDir: string | undefined;
  attach(srv: TestServer): void;
  fill(): void;
  free(): void;
  close(): void;
}

function fullDisk(): FullDisk {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint], { stdio: 'ignore' });
  } catch {
    fs.rmdirSync(mountPoint);
    let file: SQLite.Database | null = null;
    return {
      kind: 'max_page_count',
      dataDir: undefined,
      attach(srv) {
        file = sqliteHandle(srv.server.ctx.db);
      },
      fill() {
        const pages = Number(file?.pragma('page_count', { simple: true }));
        file?.pragma(`max_page_count = ${pages}`);
      },
      free() {
        file?.pragma('max_page_count = 4294967294');
      },
      close() {},
    };
  }
  const filler = path.join(mountPoint, 'filler');
  return {
    kind: 'tmpfs',
    dataDir: path.join(mountPoint, 'data'),
    attach() {},
    fill() {
      const fd = fs.openSync(filler, 'w');
      try {
        for (const size of [1 << 20, 4096, 1]) {
          const chunk = Buffer.alloc(size);
          try {
            for (;;) fs.writeSync(fd, chunk);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    free() {
      fs.rmSync(filler);
    },
    close() {
      execFileSync('umount', [mountPoint]);
      fs.rmdirSync(mountPoint);
    },
  };
}

describe.skipIf(usingPostgres())('SQLite storage', () => {
  let disk: FullDisk;
  let srv: TestServer;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let conversationId: string;

  beforeAll(async () => {
    disk = fullDisk();
    srv = await startTestServer({
      sqliteBusyTimeoutMs: 200,
      ...(disk.dataDir ? { dataDir: disk.dataDir } : {}),
    });
    disk.attach(srv);
    api = client(srv.url);
    [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
    await befriend(api, alice, bob);
    conversationId = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body
      .conversation.id;
  });
  afterAll(async () => {
    await srv?.close();
    disk?.close();
  });

  let n = 0;
  const send = (clientMessageId = `disk-${n++}`) =>
    api.post(
      '/api/conversations/send',
      { conversationId, type: 'TEXT', content: `сообщение ${clientMessageId}`, clientMessageId },
      alice.accessToken,
    );
  const history = async () =>
    (await api.get(`/api/conversations/${conversationId}/messages?limit=200`, bob.accessToken)) as {
      status: number;
      body: { messages: { id: string; clientMessageId: string | null }[] };
    };

  it('refuses writes with 507 on a full disk, keeps reading, and writes again once there is space', async () => {
    const before = await send();
    expect(before.status).toBe(200);
    disk.fill();
    let freed = false;
    // The next tests need the space, whatever happens here.
    onTestFinished(() => {
      if (!freed) disk.free();
    });
    // The log may still have room from before (frames a checkpoint freed): sends go on until it has none.
    const ok: string[] = [];
    let refused: { status: number; body: unknown; clientMessageId: string } | null = null;
    for (let i = 0; i < 2_000 && !refused; i++) {
      const clientMessageId = `disk-${n++}`;
      const res = await send(clientMessageId);
      if (res.status === 200) ok.push(clientMessageId);
      else refused = { status: res.status, body: res.body, clientMessageId };
    }
    expect(refused).toMatchObject({ status: 507, body: { message: STORAGE_FULL } });
    // Reads go on, with every acknowledged message and not the refused one.
    const read = await history();
    expect(read.status).toBe(200);
    const stored = read.body.messages.map((m) => m.clientMessageId);
    expect(stored).toEqual(expect.arrayContaining(ok));
    expect(stored).not.toContain(refused?.clientMessageId);
    expect((await api.get('/api/health')).status).toBe(200);
    if (disk.kind === 'tmpfs') {
      // The same disk holds the uploads: readiness says so, and the database still answers.
      const ready = await api.get('/api/health/ready');
      expect(ready).toMatchObject({ status: 503, body: { checks: { database: 'ok', storage: STORAGE_DOWN } } });
      // An upload to that disk is refused the same way (ENOSPC), and nothing of it is kept.
      const form = new FormData();
      form.append('file', new Blob([Buffer.alloc(256 * 1024, 1)]), 'big.bin');
      const upload = await fetch(`${srv.url}/api/upload`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${alice.accessToken}` },
      });
      expect({ status: upload.status, body: await upload.json() }).toEqual({
        status: 507,
        body: { message: STORAGE_FULL },
      });
      expect(fs.readdirSync(path.join(srv.config.dataDir, 'uploads'))).toEqual([]);
    }

    disk.free();
    freed = true;
    // The refused send, retried with its clientMessageId, is stored now, once.
    const retried = await send(refused?.clientMessageId);
    expect(retried.status).toBe(200);
    expect((await send(refused?.clientMessageId)).body.message.id).toBe(retried.body.message.id);
    const after = (await history()).body.messages.filter((m) => m.clientMessageId === refused?.clientMessageId);
    expect(after).toHaveLength(1);
    expect((await api.get('/api/health/ready')).status).toBe(200);
    console.log('full disk figures', JSON.stringify({ disk: disk.kind, acceptedAfterFill: ok.length }));
  });

  it('answers 503 when another connection holds the write lock past the busy timeout, and writes once it lets go', async () => {
    const other = new SQLite(path.join(srv.config.dataDir, 'messenger.sqlite'));
    try {
      other.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      const busy = await send();
      const ms = performance.now() - started;
      expect(busy).toMatchObject({ status: 503, body: { message: DATABASE_UNAVAILABLE } });
      expect(busy.headers.get('retry-after')).toBe('5');
      expect(ms).toBeLessThan(2_000);
      other.exec('ROLLBACK');
      expect((await send()).status).toBe(200);
    } finally {
      other.close();
    }
  });

  it('cuts the write-ahead log back to journal_size_limit after a burst', async () => {
    // A server of its own, on the ordinary disk: the burst would not fit on the small one.
    const srv = await startTestServer();
    onTestFinished(() => srv.close());
    const api = client(srv.url);
    const [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
    await befriend(api, alice, bob);
    const conversationId = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body
      .conversation.id;
    const send = () =>
      api.post(
        '/api/conversations/send',
        { conversationId, type: 'TEXT', content: 'после всплеска' },
        alice.accessToken,
      );
    const file = sqliteHandle(srv.server.ctx.db) as SQLite.Database;
    expect(file.pragma('journal_size_limit', { simple: true })).toBe(JOURNAL_SIZE_LIMIT_BYTES);
    const dbFile = path.join(srv.config.dataDir, 'messenger.sqlite');
    const wal = `${dbFile}-wal`;
    // A burst of 24 MB in one transaction: the log grows past the limit.
    file.exec('CREATE TABLE burst (b BLOB)');
    file.transaction(() => {
      const insert = file.prepare('INSERT INTO burst VALUES (randomblob(65536))');
      for (let i = 0; i < 384; i++) insert.run();
    })();
    expect(fs.statSync(wal).size).toBeGreaterThan(JOURNAL_SIZE_LIMIT_BYTES);
    const burstBytes = 384 * 65536;
    // The checkpointer (a worker, once a second) copies it into the database file…
    await vi.waitFor(() => expect(fs.statSync(dbFile).size).toBeGreaterThan(burstBytes), {
      timeout: 10_000,
      interval: 50,
    });
    // …and the next commit starts the log over, cut back to the limit.
    await vi.waitFor(
      async () => {
        expect((await send()).status).toBe(200);
        expect(fs.statSync(wal).size).toBeLessThanOrEqual(JOURNAL_SIZE_LIMIT_BYTES);
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});
