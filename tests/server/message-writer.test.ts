// The message writer's group commit on the real database (SQLite file, or PostgreSQL in CI's second pass):
// sends of one turn share a transaction, a lone send gets its own, a bad message never fails its batch
// mates, a repeated clientMessageId is reported as a duplicate; and the gathering policy waits for company
// only while sends arrive faster than one per GATHER_MS.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createGatherPolicy,
  createMessageWriter,
  GATHER_MS,
  type NewMessage,
} from '../../server/messages/message-writer';
import { client, startTestServer, type TestServer } from './harness';
import { befriend } from './socket-helpers';

let srv: TestServer;
let alice: string;
let conversationId: string;

beforeAll(async () => {
  srv = await startTestServer();
  const api = client(srv.url);
  const a = await api.user('alice');
  const b = await api.user('bob');
  await befriend(api, a, b);
  alice = a.user.id;
  conversationId = (await api.post('/api/conversations/with', { userId: b.user.id }, a.accessToken)).body.conversation
    .id;
});
afterAll(() => srv.close());
afterEach(() => {
  vi.useRealTimers();
});

const message = (over: Partial<NewMessage['row']> = {}): NewMessage => ({
  row: {
    id: randomUUID(),
    conversation_id: conversationId,
    sender_id: alice,
    type: 'TEXT',
    content: 'привет',
    reply_to_id: null,
    client_message_id: randomUUID(),
    created_at: new Date().toISOString(),
    deleted_at: null,
    ...over,
  },
  uploadIds: [],
});

/** A clock that moves by `stepMs` on every reading. */
function steppingClock(stepMs: number) {
  let t = 1_000_000;
  return () => (t += stepMs);
}

const stored = async (ids: string[]) =>
  (await srv.server.ctx.db.selectFrom('messages').select('id').where('id', 'in', ids).execute())
    .map((r) => r.id)
    .sort();

describe('gather policy', () => {
  it('does not wait for company after a pause, nor for sends slower than one per GATHER_MS', () => {
    let t = 0;
    const policy = createGatherPolicy(() => t);
    expect(policy.arrive()).toBe(false);
    const slow: boolean[] = [];
    for (let i = 0; i < 50; i++) {
      t += GATHER_MS * 2.5; // 200 sends/s
      slow.push(policy.arrive());
    }
    expect(slow.every((w) => w === false)).toBe(true);
  });

  it('waits once sends arrive faster than one per GATHER_MS, and stops after a pause', () => {
    let t = 0;
    const policy = createGatherPolicy(() => t);
    const fast: boolean[] = [];
    for (let i = 0; i < 40; i++) {
      t += GATHER_MS / 2; // 1000 sends/s
      fast.push(policy.arrive());
    }
    // A burst after idleness is recognised within a few dozen sends, and then every send gathers.
    expect(fast.slice(-10).every((w) => w === true)).toBe(true);
    expect(fast[0]).toBe(false);
    t += 1000;
    expect(policy.arrive()).toBe(false);
  });
});

describe('message writer', () => {
  it('writes the sends of one turn in one transaction', async () => {
    const writer = createMessageWriter(srv.server.ctx.db, { now: steppingClock(0.1) });
    const batch = Array.from({ length: 20 }, () => message());
    const outcomes = await Promise.all(batch.map((m) => writer.write(m)));
    expect(outcomes).toEqual(batch.map(() => 'stored'));
    expect(writer.stats()).toEqual({ commits: 1, messages: 20 });
    expect(await stored(batch.map((m) => m.row.id))).toEqual(batch.map((m) => m.row.id).sort());
  });

  it('commits a lone send at once, on its own, when sends are slow', async () => {
    const writer = createMessageWriter(srv.server.ctx.db, { now: steppingClock(10) });
    // Timers never fire here: a send that waited for company would never be answered.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = message();
      ids.push(m.row.id);
      expect(await writer.write(m)).toBe('stored');
    }
    expect(writer.stats()).toEqual({ commits: 5, messages: 5 });
    expect(await stored(ids)).toEqual([...ids].sort());
  });

  it('gathers sends that arrive within GATHER_MS under fast traffic', async () => {
    const writer = createMessageWriter(srv.server.ctx.db, { now: steppingClock(0.1) });
    // Warm the policy up as a stream of fast sends would.
    await Promise.all(Array.from({ length: 30 }, () => writer.write(message())));
    const before = writer.stats().commits;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const first = writer.write(message());
    // Arrives a turn later but within the gathering window: shares the first one's commit.
    await new Promise((r) => setImmediate(r));
    const second = writer.write(message());
    await new Promise((r) => setImmediate(r));
    expect(writer.stats().commits).toBe(before);
    vi.advanceTimersByTime(GATHER_MS);
    expect(await Promise.all([first, second])).toEqual(['stored', 'stored']);
    expect(writer.stats().commits - before).toBe(1);
  });

  it('reports a repeated clientMessageId as a duplicate and stores nothing for it', async () => {
    const writer = createMessageWriter(srv.server.ctx.db);
    const clientMessageId = randomUUID();
    const first = message({ client_message_id: clientMessageId });
    const again = message({ client_message_id: clientMessageId });
    expect(await writer.write(first)).toBe('stored');
    expect(await writer.write(again)).toBe('duplicate');
    // In one batch, too.
    const cmid = randomUUID();
    const pair = [message({ client_message_id: cmid }), message({ client_message_id: cmid })];
    expect(await Promise.all(pair.map((m) => writer.write(m)))).toEqual(['stored', 'duplicate']);
    expect(await stored([first.row.id, again.row.id, ...pair.map((m) => m.row.id)])).toEqual(
      [first.row.id, pair[0]?.row.id].sort(),
    );
  });

  it('fails only the bad message of a batch; the others are stored', async () => {
    const writer = createMessageWriter(srv.server.ctx.db, { now: steppingClock(0.1) });
    const good = [message(), message()];
    const bad = message({ conversation_id: randomUUID() }); // no such conversation: a foreign key violation
    const results = await Promise.allSettled([
      writer.write(good[0] as NewMessage),
      writer.write(bad),
      writer.write(good[1] as NewMessage),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await stored([...good.map((m) => m.row.id), bad.row.id])).toEqual(good.map((m) => m.row.id).sort());
  });
});
