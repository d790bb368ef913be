// Upgrades from real old databases: each fixture under tests/fixtures/upgrade (scripts/build-upgrade-fixtures.ts wrote
// it with an earlier release's own server) is restored, on SQLite or, with TEST_PG_URL, into a scratch PostgreSQL
// database; the current server migrates it (taking its copy first, or finding the operator's dump) and starts on it;
// then everything the manifest recorded must read the same over the HTTP API: the conversations and unread counts,
// every message in order with its reply, edit, reactions and receipts, the thread, the poll, the search by another
// form of a word, the upload byte for byte, the secret chat's server state, and every user still signed in with the
// refresh token the old release gave; and a new message is taken and heard on a socket. The server's clock is the
// fixture's own time, so token lifetimes never expire with the calendar. Each upgrade's time (the copy and the
// migrations) is printed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { SCHEMA_VERSION } from '../../server/db/upgrade';
import { freshPostgres, usingPostgres } from './harness';
import { manualClock } from './manual-clock';
import { connect } from './socket-helpers';
import {
  http,
  type Manifest,
  readConversations,
  readMessages,
  readSecretState,
  readThread,
  searchHits,
  sha256,
} from './upgrade-fixtures-data';

const fixturesDir = path.resolve(import.meta.dirname, '../fixtures/upgrade');
const database = usingPostgres() ? 'postgres' : 'sqlite';
const fixtures = fs
  .readdirSync(fixturesDir)
  .filter((d) => fs.existsSync(path.join(fixturesDir, d, database, 'manifest.json')))
  .map((d) => {
    const dir = path.join(fixturesDir, d, database);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    return { name: `${d} (схема ${manifest.release.schema}, ${manifest.release.date.slice(0, 10)})`, dir, manifest };
  })
  .sort((a, b) => a.manifest.release.date.localeCompare(b.manifest.release.date));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The fixture's files in a data directory of the test's own, and its database in place; the config to start on. */
async function restore(dir: string, now: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-upgrade-fixture-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));
  let databaseUrl: string | null = null;
  if (database === 'sqlite') {
    execFileSync('tar', ['-xzf', path.join(dir, 'data.tar.gz'), '-C', dataDir]);
  } else {
    execFileSync('tar', ['-xzf', path.join(dir, 'files.tar.gz'), '-C', dataDir]);
    const pg = await freshPostgres();
    cleanups.push(() => pg.drop());
    databaseUrl = pg.url;
    const dump = fs.readFileSync(path.join(dir, 'dump.sql.gz'));
    execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', pg.url], {
      input: zlib.gunzipSync(dump),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    // The operator's pg_dump taken just before the upgrade (docs/administration.md «Обновление»).
    const backups = path.join(dataDir, 'backups');
    fs.mkdirSync(backups);
    const copy = path.join(backups, 'before-upgrade.sql.gz');
    fs.writeFileSync(copy, dump);
    fs.utimesSync(copy, new Date(now), new Date(now));
  }
  const config = loadConfig(
    {},
    { dataDir, databaseUrl, port: 0, host: '127.0.0.1', clientDir: null, logLevel: 'silent' },
  );
  return { config, dataDir };
}

describe.each(fixtures)(`an upgrade from $name on ${database}`, ({ dir, manifest }) => {
  it('holds what the data set writes', () => {
    // A fixture that lost a part of the data set would make the comparison below vacuous for that part.
    const direct = manifest.direct.messages;
    expect(direct).toHaveLength(5);
    expect(direct.filter((m) => m.edited)).toHaveLength(1);
    expect(direct.filter((m) => m.replyToId)).toHaveLength(1);
    expect(direct.flatMap((m) => m.reactions)).toHaveLength(2);
    expect(direct.filter((m) => m.receipts.some((r) => r.status === 'READ'))).toHaveLength(4);
    expect(direct.flatMap((m) => m.attachments)).toHaveLength(1);
    const group = manifest.group.messages;
    expect(group.filter((m) => m.type === 'TEXT' && !m.threadRootId).length).toBeGreaterThanOrEqual(3);
    expect(manifest.thread?.replies.length ?? 0).toBe(manifest.features.threads ? 2 : 0);
    const poll = group.find((m) => m.poll)?.poll ?? null;
    expect(poll ? [poll.voterCount, ...poll.options.map((o) => o.votes)] : null).toEqual(
      manifest.features.polls ? [3, 1, 2, 0] : null,
    );
    const encrypted = manifest.secret?.messages.filter((m) => m.type === 'ENCRYPTED') ?? [];
    expect(encrypted).toHaveLength(manifest.features.secret ? 2 : 0);
  });

  it('migrates with a copy first, and every read answers as the old release did', async () => {
    const clock = manualClock(Date.parse(manifest.writtenAt) + 60_000);
    const { config, dataDir } = await restore(dir, clock.now());

    // The upgrade alone (the copy and the migrations), timed; the server below finds nothing left to migrate.
    const lines: string[] = [];
    const started = performance.now();
    const { db } = await openDatabase(config, { now: () => clock.now(), log: (l) => lines.push(l) });
    const ms = performance.now() - started;
    await db.destroy();
    const { schema } = manifest.release;
    if (schema === SCHEMA_VERSION) {
      expect(lines).toEqual([]);
    } else {
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Обновление схемы базы: ${schema} → ${SCHEMA_VERSION}, копия: `);
      const copy = lines[0].split('копия: ')[1] as string;
      expect(fs.existsSync(copy)).toBe(true);
      expect(path.dirname(copy)).toBe(path.join(dataDir, 'backups'));
      if (database === 'sqlite') {
        // The copy is the old release's database, as it was: what going back restores.
        const old = new Sqlite(copy, { readonly: true });
        const last = old.prepare('select max(name) as name from kysely_migration').get() as { name: string };
        old.close();
        expect(last.name.slice(0, 3)).toBe(schema);
      }
    }
    const bytes = fs.statSync(path.join(dir, database === 'sqlite' ? 'data.tar.gz' : 'dump.sql.gz')).size;
    console.log(
      `upgrade ${manifest.release.commit} (${database}, схема ${schema} → ${SCHEMA_VERSION}, ${bytes} B сжатых данных): ${ms.toFixed(0)} ms`,
    );

    const server = await createServer(config, { clock });
    cleanups.push(() => server.close());
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = server.app.server.address();
    const api = http(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);

    // Still signed in: each sign-in's refresh token from the old release gives a new pair for the same person.
    const token: Record<string, string> = {};
    for (const [name, user] of Object.entries(manifest.users)) {
      const refreshed = await api.call('POST', '/api/auth/refresh', { refreshToken: user.refreshToken });
      expect(refreshed.status, `${name}: ${JSON.stringify(refreshed.body)}`).toBe(200);
      token[name] = refreshed.body.accessToken;
      const me = await api.ok('GET', '/api/status/me', undefined, token[name]);
      expect(me.user.id).toBe(user.id);
      expect(me.user.username).toBe(user.username);
    }

    expect(await readConversations(api, token.alice as string)).toEqual(manifest.conversations.alice);
    expect(await readConversations(api, token.boris as string)).toEqual(manifest.conversations.boris);
    expect(await readMessages(api, manifest.direct.id, token.alice as string)).toEqual(manifest.direct.messages);
    expect(await readMessages(api, manifest.group.id, token.alice as string)).toEqual(manifest.group.messages);
    if (manifest.thread) {
      expect(await readThread(api, manifest.thread.rootId, token.alice as string)).toEqual(manifest.thread.replies);
    }
    expect(await searchHits(api, manifest.search.query, token.alice as string)).toEqual(manifest.search.hits);
    expect(manifest.search.hits.length).toBeGreaterThan(0);

    const file = await fetch(api.base + manifest.upload.url);
    expect(file.status).toBe(200);
    const body = new Uint8Array(await file.arrayBuffer());
    expect({ size: body.length, sha256: sha256(body) }).toEqual({
      size: manifest.upload.size,
      sha256: manifest.upload.sha256,
    });

    // And the upgraded database takes new writes: boris's socket hears alice's message, which lands last.
    const seen: string[] = [];
    let onSeen = () => {};
    const socket = await connect(api.base, token.boris as string, {
      onEvent: (_event, payload) => {
        seen.push(JSON.stringify(payload));
        onSeen();
      },
    });
    cleanups.push(async () => socket.disconnect());
    const fresh = await api.ok(
      'POST',
      '/api/conversations/send',
      { conversationId: manifest.group.id, type: 'TEXT', content: 'Пишу уже после обновления' },
      token.alice,
    );
    const id = fresh.message.id as string;
    await new Promise<void>((resolve) => {
      onSeen = () => seen.some((p) => p.includes(id)) && resolve();
      onSeen();
    });
    const after = await readMessages(api, manifest.group.id, token.alice as string);
    expect(after.slice(0, -1)).toEqual(manifest.group.messages);
    expect(after.at(-1)?.content).toBe('Пишу уже после обновления');

    if (manifest.secret) {
      const { alice, boris } = manifest.users;
      const state = await readSecretState(
        api,
        manifest.secret.conversationId,
        token.alice as string,
        alice.secretDeviceId as string,
        token.boris as string,
        boris.secretDeviceId as string,
      );
      expect({ ...state, conversationId: manifest.secret.conversationId }).toEqual(manifest.secret);
    }
  });
});

it('has fixtures of at least two releases for this database', () => {
  expect(new Set(fixtures.map((f) => f.manifest.release.commit)).size).toBeGreaterThanOrEqual(2);
});
