// Read cursors (migrations/006_read_cursors.ts): conversation_members.last_read_seq is the seq of the newest message
// the member has read. A message counts as read by every member (other than its sender) whose cursor is at or
// past it, so a READ receipt is derived, never stored per message, and marking a whole conversation read is
// one UPDATE however long its history.
import { sql } from 'kysely';
import type { Receipt } from '../../src/contract/entities';
import { countNativeStatements, type Database, sqliteHandle } from '../db/database';
import { createGatherPolicy, GATHER_MS } from './message-writer';

/** A message that became read: what the announcement needs. */
export interface ReadMessage {
  id: string;
  sender_id: string;
  seq: number;
}

/** What a batch of read receipts did: `missing` when a message named is unknown or not the reader's to read. */
export interface ReceiptsRead {
  missing: boolean;
  /** Per conversation whose cursor moved, the messages of others it passed. */
  read: { conversationId: string; messages: ReadMessage[] }[];
}

/** A message named in a receipt, found only in the reader's own conversations. */
interface NamedMessage {
  id: string;
  seq: number;
  conversation_id: string;
  sender_id: string;
  deleted_at: string | null;
}

export interface CursorWriter {
  /**
   * POST /messages/receipts: finds the messages named (all of them in the reader's conversations, else nothing
   * is stored and `missing` is set) and moves the reader's cursor in each of their conversations to the newest
   * of the others' visible messages named. Own and deleted messages need no receipt (a deletion may race with
   * the reader's batch).
   */
  readNamed(userId: string, ids: readonly string[]): Promise<ReceiptsRead>;
  /**
   * Moves userId's cursor in the conversation forward to `upTo` (never back) and returns the visible messages
   * of others it passed, oldest first; committed before it resolves. Two requests of the same reader racing
   * each other never both report the same messages.
   */
  advance(userId: string, conversationId: string, upTo: number): Promise<ReadMessage[]>;
}

/**
 * On SQLite, the advances and receipt batches asked for in one event-loop turn share one native transaction of
 * prepared statements (Kysely's per-statement machinery cost more than the work), the lookup of the messages a
 * receipt names included; while they arrive faster than one per GATHER_MS, a batch waits that long for company,
 * as the message writer's do (createGatherPolicy). Slower ones are committed in the turn that parsed them: the
 * members viewing a group read a message within a few milliseconds of each other (their clients batch 250 ms
 * from its arrival), too far apart to share a commit, and in bench:groups waiting 10 ms for them cost a second
 * wake-up of the process per batch, more than the commits it saved. Each job runs whole inside the transaction,
 * so none can interleave with another. On PostgreSQL each advance is a compare-and-set through Kysely.
 */
export function createCursorWriter(db: Database): CursorWriter {
  const file = sqliteHandle(db);
  if (!file) {
    return {
      advance: (userId, conversationId, upTo) => advanceCursor(db, userId, conversationId, upTo),
      readNamed: async (userId, ids) => {
        const rows = await namedMessages(db, userId, ids).execute();
        if (rows.length !== ids.length) return { missing: true, read: [] };
        const read: ReceiptsRead['read'] = [];
        for (const [conversationId, upTo] of cursorTargets(userId, rows)) {
          read.push({ conversationId, messages: await advanceCursor(db, userId, conversationId, upTo) });
        }
        return { missing: false, read };
      },
    };
  }
  const position = file.prepare(
    db
      .selectFrom('conversation_members')
      .select('last_read_seq')
      .where('conversation_id', '=', '')
      .where('user_id', '=', '')
      .compile().sql,
  );
  const move = file.prepare(
    db
      .updateTable('conversation_members')
      .set({ last_read_seq: 0 })
      .where('conversation_id', '=', '')
      .where('user_id', '=', '')
      .compile().sql,
  );
  const passed = file.prepare(passedQuery(db, '', '', 0, 0).compile().sql);
  // When the cursor got there (for «Информация»: who read a message, and when).
  const mark = file.prepare(
    db
      .insertInto('read_marks')
      .values({ conversation_id: '', user_id: '', seq: 0, read_at: '' })
      .onConflict((oc) => oc.columns(['conversation_id', 'user_id', 'seq']).doNothing())
      .compile().sql,
  );
  // Any number of ids as one JSON parameter, so one prepared statement serves every batch size.
  const named = file.prepare(
    db
      .selectFrom('messages as m')
      .innerJoin('conversation_members as cm', (j) =>
        j.onRef('cm.conversation_id', '=', 'm.conversation_id').on('cm.user_id', '=', ''),
      )
      .select(['m.id', 'm.seq', 'm.conversation_id', 'm.sender_id', 'm.deleted_at'])
      .where(sql<boolean>`m.id in (select value from json_each(${''}))`)
      .compile().sql,
  );
  type Job = { run(): unknown; resolve(r: unknown): void; reject(e: unknown): void };
  let queue: Job[] = [];
  let statements = 0;
  const step = (userId: string, conversationId: string, upTo: number): ReadMessage[] => {
    statements += 1;
    const row = position.get(conversationId, userId) as { last_read_seq: number } | undefined;
    const from = Number(row?.last_read_seq ?? 0);
    if (!row || upTo <= from) return [];
    statements += 3;
    move.run(upTo, conversationId, userId);
    mark.run(conversationId, userId, upTo, new Date().toISOString());
    return passed.all(conversationId, from, upTo, userId) as ReadMessage[];
  };
  const readNamed = (userId: string, ids: readonly string[]): ReceiptsRead => {
    statements += 1;
    const rows = named.all(userId, JSON.stringify(ids)) as NamedMessage[];
    if (rows.length !== ids.length) return { missing: true, read: [] };
    return {
      missing: false,
      read: [...cursorTargets(userId, rows)].map(([conversationId, upTo]) => ({
        conversationId,
        messages: step(userId, conversationId, upTo),
      })),
    };
  };
  const runAll = file.transaction((jobs: Job[]) => jobs.map((j) => j.run()));
  const flush = async () => {
    const jobs = queue;
    queue = [];
    try {
      const results = await db.connection().execute(async () => {
        statements = 0;
        const out = runAll.immediate(jobs);
        countNativeStatements(db, statements);
        return out;
      });
      for (const [i, j] of jobs.entries()) j.resolve(results[i]);
    } catch (err) {
      for (const j of jobs) j.reject(err);
    }
  };
  const gather = createGatherPolicy();
  const enqueue = <T>(run: () => T) =>
    new Promise<T>((resolve, reject) => {
      const wait = gather.arrive();
      queue.push({ run, resolve: resolve as (r: unknown) => void, reject });
      if (queue.length > 1) return;
      if (wait) setTimeout(() => void flush(), GATHER_MS);
      else setImmediate(() => void flush());
    });
  return {
    advance: (userId, conversationId, upTo) => enqueue(() => step(userId, conversationId, upTo)),
    readNamed: (userId, ids) => enqueue(() => readNamed(userId, ids)),
  };
}

/** Where each conversation's cursor goes: the newest of the others' visible messages named in it. */
function cursorTargets(userId: string, rows: readonly NamedMessage[]): Map<string, number> {
  const upTo = new Map<string, number>();
  for (const r of rows) {
    if (r.sender_id === userId || r.deleted_at) continue;
    upTo.set(r.conversation_id, Math.max(upTo.get(r.conversation_id) ?? 0, Number(r.seq)));
  }
  return upTo;
}

/** The messages named, if the reader is a member of their conversations (PostgreSQL). */
const namedMessages = (db: Database, userId: string, ids: readonly string[]) =>
  db
    .selectFrom('messages as m')
    .innerJoin('conversation_members as cm', (j) =>
      j.onRef('cm.conversation_id', '=', 'm.conversation_id').on('cm.user_id', '=', userId),
    )
    .select(['m.id', 'm.seq', 'm.conversation_id', 'm.sender_id', 'm.deleted_at'])
    .where('m.id', 'in', [...ids]);

/** Visible messages of others in (from, upTo] of the conversation, oldest first. */
function passedQuery(db: Database, conversationId: string, userId: string, from: number, upTo: number) {
  return (
    db
      .selectFrom('messages')
      .select(['id', 'sender_id', 'seq'])
      .where('conversation_id', '=', conversationId)
      .where('seq', '>', from)
      .where('seq', '<=', upTo)
      .where('sender_id', '!=', userId)
      .where('deleted_at', 'is', null)
      // A group's SYSTEM entries are no news: passing them is not reading (and adds no bound parameter).
      .where(sql<boolean>`type != 'SYSTEM'`)
      // Nor are a secret chat's edits and reactions (no unread count to clear).
      .where(sql<boolean>`control is null`)
      .orderBy('seq')
  );
}

/** PostgreSQL: compare-and-set on the old position. */
async function advanceCursor(
  db: Database,
  userId: string,
  conversationId: string,
  upTo: number,
): Promise<ReadMessage[]> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const row = await db
      .selectFrom('conversation_members')
      .select('last_read_seq')
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return [];
    const from = Number(row.last_read_seq);
    if (upTo <= from) return [];
    const moved = await db
      .updateTable('conversation_members')
      .set({ last_read_seq: upTo })
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .where('last_read_seq', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) continue;
    await db
      .insertInto('read_marks')
      .values({ conversation_id: conversationId, user_id: userId, seq: upTo, read_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['conversation_id', 'user_id', 'seq']).doNothing())
      .execute();
    const rows = await passedQuery(db, conversationId, userId, from, upTo).execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }
  return [];
}

/** The newest visible message's seq in the conversation (0 when there is none): one probe of messages_visible. */
export async function latestSeq(db: Database, conversationId: string): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((x) => x.fn.max('seq').as('s'))
    .where('conversation_id', '=', conversationId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.s ?? 0);
}

/**
 * Each message's receipts: the members other than its sender who were there when it came and whose cursor reached
 * it, in joining order.
 * One query for a batch of messages of any number of conversations.
 */
export async function receiptsOf(
  db: Database,
  messages: readonly { id: string; conversation_id: string; sender_id: string; seq: number }[],
): Promise<Map<string, Receipt[]>> {
  const out = new Map<string, Receipt[]>();
  if (messages.length === 0) return out;
  const conversations = [...new Set(messages.map((m) => m.conversation_id))];
  const oldest = Math.min(...messages.map((m) => Number(m.seq)));
  const readers = await db
    .selectFrom('conversation_members')
    .select(['conversation_id', 'user_id', 'last_read_seq', 'joined_seq'])
    .where('conversation_id', 'in', conversations)
    .where('last_read_seq', '>=', oldest)
    .orderBy('conversation_id')
    .orderBy('joined_at')
    .orderBy('user_id')
    .execute();
  const byConversation = new Map<string, { user_id: string; last_read_seq: number; joined_seq: number }[]>();
  for (const r of readers) {
    const list = byConversation.get(r.conversation_id);
    const reader = { user_id: r.user_id, last_read_seq: Number(r.last_read_seq), joined_seq: Number(r.joined_seq) };
    if (list) list.push(reader);
    else byConversation.set(r.conversation_id, [reader]);
  }
  for (const m of messages) {
    const seq = Number(m.seq);
    const receipts: Receipt[] = [];
    for (const r of byConversation.get(m.conversation_id) ?? []) {
      // A member who joined after it (history «Видна» or not) did not read it when it was news.
      if (r.user_id !== m.sender_id && r.last_read_seq >= seq && r.joined_seq < seq)
        receipts.push({ userId: r.user_id, status: 'READ' });
    }
    out.set(m.id, receipts);
  }
  return out;
}
