// The real server (createServer) in a child process for bench:search, answering the runner over IPC: seed a
// history, drop the search index's triggers (the build without indexing), report its CPU time and table sizes.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../../server/app';
import { issueRefreshToken } from '../../server/auth/refresh-tokens';
import { BACKUPS_OFF } from '../../server/backups/schedule';
import { loadConfig } from '../../server/config';
import { sqliteHandle } from '../../server/db/database';
import { chatMessage, seeded } from './russian-text';

export type ChildRequest =
  | { id: number; type: 'seedHistory'; conversations: number; messages: number; memberOf: number; users: number }
  | { id: number; type: 'seedPairs'; pairs: number }
  | { id: number; type: 'dropIndex' }
  | { id: number; type: 'cpu' }
  | { id: number; type: 'sizes' }
  | { id: number; type: 'close' };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
const config = loadConfig(process.env, {
  dataDir,
  backup: BACKUPS_OFF,
  databaseUrl: null,
  port: 0,
  host: '127.0.0.1',
  clientDir: null,
  logLevel: 'warn',
  // The benchmark searches as fast as the server answers: the per-user budget would measure itself.
  searchPerMinute: 1_000_000,
});
const server = await createServer(config);
await server.app.listen({ port: 0, host: '127.0.0.1' });
const { db, accessTokens } = server.ctx;
const file = sqliteHandle(db);
if (!file) throw new Error('bench:search runs on SQLite');

async function makeUsers(n: number, tokens: number) {
  const now = new Date().toISOString();
  const ids = Array.from({ length: n }, () => randomUUID());
  const insert = file!.prepare(
    `INSERT INTO users (id, username, username_lower, display_name, password_hash, status, eblid, created_at) VALUES (?, ?, ?, ?, 'x', 'ONLINE', ?, ?)`,
  );
  const stamp = Date.now().toString(36);
  file!.transaction(() => {
    for (const [i, id] of ids.entries()) {
      insert.run(id, `s${stamp}${i}`, `s${stamp}${i}`, `Участник ${i}`, String(i % 10000).padStart(4, '0'), now);
    }
  })();
  const signed: { id: string; token: string }[] = [];
  for (const id of ids.slice(0, tokens)) {
    const session = await issueRefreshToken(db, id, config.refreshTokenTtlSec);
    // Its sign-in too: a refresh token whose sign-in is missing is refused and swept (server/auth/sign-ins.ts).
    const at = new Date().toISOString();
    await db
      .insertInto('sign_ins')
      .values({ id: session.familyId, user_id: id, browser: null, os: null, created_at: at, last_active_at: at })
      .execute();
    signed.push({ id, token: await accessTokens.sign(id, session.familyId) });
  }
  return { ids, signed };
}

function makeConversations(members: string[][]): string[] {
  const now = new Date().toISOString();
  const ids = members.map(() => randomUUID());
  const conv = file!.prepare(
    'INSERT INTO conversations (id, title, is_group, direct_key, created_by, created_at) VALUES (?, ?, 1, NULL, ?, ?)',
  );
  const member = file!.prepare(
    'INSERT INTO conversation_members (conversation_id, user_id, joined_at) VALUES (?, ?, ?)',
  );
  file!.transaction(() => {
    members.forEach((people, i) => {
      conv.run(ids[i], `Беседа ${i}`, people[0], now);
      for (const p of people) member.run(ids[i], p, now);
    });
  })();
  return ids;
}

const handlers = {
  /** Conversations of 2–4 people; the searching user (the first) is in `memberOf` of them; messages spread evenly over time. */
  async seedHistory(r: Extract<ChildRequest, { type: 'seedHistory' }>) {
    const rnd = seeded(7);
    const { ids, signed } = await makeUsers(r.users, 1);
    const me = ids[0] as string;
    const others = ids.slice(1);
    const members = Array.from({ length: r.conversations }, (_, i) => {
      const people = new Set<string>();
      if (i % Math.round(r.conversations / r.memberOf) === 0) people.add(me);
      while (people.size < 2 + Math.floor(rnd() * 3)) people.add(others[Math.floor(rnd() * others.length)] as string);
      return [...people];
    });
    const conversations = makeConversations(members);
    const insert = file!.prepare(
      `INSERT INTO messages (id, conversation_id, sender_id, type, content, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const start = Date.now() - r.messages * 1000;
    const t0 = performance.now();
    const batch = 5000;
    for (let from = 0; from < r.messages; from += batch) {
      file!.transaction(() => {
        for (let i = from; i < Math.min(r.messages, from + batch); i++) {
          const c = Math.floor(rnd() * conversations.length);
          const people = members[c] as string[];
          insert.run(
            randomUUID(),
            conversations[c],
            people[Math.floor(rnd() * people.length)],
            // Some photos, files and voice messages (their captions) for the «Тип» filter.
            i % 20 === 0 ? 'IMAGE' : i % 33 === 0 ? 'FILE' : i % 50 === 0 ? 'VOICE' : 'TEXT',
            chatMessage(rnd),
            new Date(start + i * 1000).toISOString(),
          );
        }
      })();
    }
    const seedMs = performance.now() - t0;
    const mine = conversations.filter((_, i) => members[i]?.includes(me));
    // Someone the user shares a conversation with, for the «от:» filter; the first and last message's times for «Дата».
    const peer = members.find((m) => m.includes(me))?.find((id) => id !== me);
    const span = {
      first: new Date(start).toISOString(),
      last: new Date(start + (r.messages - 1) * 1000).toISOString(),
    };
    return { token: signed[0]?.token, seedMs, inMine: mine.length, mine, me, peer, span };
  },
  /** Pairs of signed-in users, each with a conversation, for the send phase. */
  async seedPairs(r: Extract<ChildRequest, { type: 'seedPairs' }>) {
    const { signed } = await makeUsers(r.pairs * 2, r.pairs * 2);
    const pairs = Array.from({ length: r.pairs }, (_, i) => [signed[2 * i], signed[2 * i + 1]] as const);
    const conversations = makeConversations(pairs.map(([a, b]) => [a!.id, b!.id]));
    return { pairs: pairs.map(([a, b], i) => ({ a: a!.token, b: b!.token, conversationId: conversations[i] })) };
  },
  async dropIndex() {
    for (const t of [
      'message_search_insert',
      'message_search_update',
      'message_search_delete',
      'message_search_attachment',
    ]) {
      file!.exec(`DROP TRIGGER IF EXISTS ${t}`);
    }
    return { ok: true };
  },
  async cpu() {
    const u = process.cpuUsage();
    return { ms: (u.user + u.system) / 1000 };
  },
  async sizes() {
    const bytes = (where: string) =>
      (file!.prepare(`SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE ${where}`).get() as { b: number }).b;
    return {
      index: bytes("name LIKE 'message_search%'"),
      messagesTable: bytes("name = 'messages'"),
      messagesIndexes: bytes("name IN (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages')"),
    };
  },
  async close() {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    setImmediate(() => process.exit(0));
    return { ok: true };
  },
};

const addr = server.app.server.address();
process.on('message', async (req: ChildRequest) => {
  try {
    const handler = handlers[req.type] as (r: ChildRequest) => Promise<unknown>;
    process.send?.({ id: req.id, ok: true, value: await handler(req) });
  } catch (err) {
    process.send?.({ id: req.id, ok: false, error: String((err as Error)?.stack ?? err) });
  }
});
process.send?.({ ready: true, port: typeof addr === 'object' && addr ? addr.port : 0 });
