// Read cursors (migrations/006_read_cursors.ts): conversation_members.last_read_seq is the seq of the newest message
// the member has read. A message counts as read by every member (other than its sender) whose cursor is at or
// past it, so a READ receipt is derived, never stored per message, and marking a whole conversation read is
// one UPDATE however long its history.
import type { Receipt } from '../../src/contract/entities';
import { countNativeStatements, type Database, sqliteHandle } from '../db/database';

/** A message that became read: what the announcement needs. */
export interface ReadMessage {
  id: string;
  sender_id: string;
  seq: number;
}

export interface CursorWriter {
  /**
   * Moves userId's cursor in the conversation forward to `upTo` (never back) and returns the visible messages
   * of others it passed, oldest first; committed before it resolves. Two requests of the same reader racing
   * each other never both report the same messages.
   */
  advance(userId: string, conversationId: string, upTo: number): Promise<ReadMessage[]>;
}

/**
 * How long an advance waits for others to share its commit. The members viewing a group read a message within a
 * few milliseconds of each other (their clients batch 250 ms from the message's arrival), each with its own
 * request; in bench:groups a commit of its own per request was the largest cost of a receipt after the HTTP work.
 */
export const CURSOR_GATHER_MS = 10;

/**
 * On SQLite, the advances asked for within CURSOR_GATHER_MS share one native transaction of prepared statements
 * (Kysely's per-statement machinery and a commit each cost more than the work). Each advance runs whole inside
 * it, so none can interleave with another. On PostgreSQL each advance is a compare-and-set through Kysely.
 */
export function createCursorWriter(db: Database): CursorWriter {
  const file = sqliteHandle(db);
  if (!file) return { advance: (userId, conversationId, upTo) => advanceCursor(db, userId, conversationId, upTo) };
  const position = file.prepare(
    db.selectFrom('conversation_members').select('last_read_seq').where('conversation_id', '=', '').where('user_id', '=', '').compile().sql,
  );
  const move = file.prepare(
    db.updateTable('conversation_members').set({ last_read_seq: 0 }).where('conversation_id', '=', '').where('user_id', '=', '').compile().sql,
  );
  const passed = file.prepare(passedQuery(db, '', '', 0, 0).compile().sql);
  type Job = { userId: string; conversationId: string; upTo: number; resolve(r: ReadMessage[]): void; reject(e: unknown): void };
  let queue: Job[] = [];
  let statements = 0;
  const run = file.transaction((jobs: Job[]) =>
    jobs.map(({ userId, conversationId, upTo }): ReadMessage[] => {
      statements += 1;
      const row = position.get(conversationId, userId) as { last_read_seq: number } | undefined;
      const from = Number(row?.last_read_seq ?? 0);
      if (!row || upTo <= from) return [];
      statements += 2;
      move.run(upTo, conversationId, userId);
      return passed.all(conversationId, from, upTo, userId) as ReadMessage[];
    }),
  );
  const flush = async () => {
    const jobs = queue;
    queue = [];
    try {
      const results = await db.connection().execute(async () => {
        statements = 0;
        const out = run(jobs);
        countNativeStatements(db, statements);
        return out;
      });
      for (const [i, j] of jobs.entries()) j.resolve(results[i] as ReadMessage[]);
    } catch (err) {
      for (const j of jobs) j.reject(err);
    }
  };
  return {
    advance: (userId, conversationId, upTo) =>
      new Promise((resolve, reject) => {
        queue.push({ userId, conversationId, upTo, resolve, reject });
        if (queue.length === 1) setTimeout(() => void flush(), CURSOR_GATHER_MS);
      }),
  };
}

/** Visible messages of others in (from, upTo] of the conversation, oldest first. */
function passedQuery(db: Database, conversationId: string, userId: string, from: number, upTo: number) {
  return db
    .selectFrom('messages')
    .select(['id', 'sender_id', 'seq'])
    .where('conversation_id', '=', conversationId)
    .where('seq', '>', from)
    .where('seq', '<=', upTo)
    .where('sender_id', '!=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('seq');
}

/** PostgreSQL: compare-and-set on the old position. */
async function advanceCursor(db: Database, userId: string, conversationId: string, upTo: number): Promise<ReadMessage[]> {
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
 * Each message's receipts: the members other than its sender whose cursor reached it, in joining order.
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
    .select(['conversation_id', 'user_id', 'last_read_seq'])
    .where('conversation_id', 'in', conversations)
    .where('last_read_seq', '>=', oldest)
    .orderBy('conversation_id')
    .orderBy('joined_at')
    .orderBy('user_id')
    .execute();
  const byConversation = new Map<string, { user_id: string; last_read_seq: number }[]>();
  for (const r of readers) {
    const list = byConversation.get(r.conversation_id);
    const reader = { user_id: r.user_id, last_read_seq: Number(r.last_read_seq) };
    if (list) list.push(reader);
    else byConversation.set(r.conversation_id, [reader]);
  }
  for (const m of messages) {
    const seq = Number(m.seq);
    const receipts: Receipt[] = [];
    for (const r of byConversation.get(m.conversation_id) ?? []) {
      if (r.user_id !== m.sender_id && r.last_read_seq >= seq) receipts.push({ userId: r.user_id, status: 'READ' });
    }
    out.set(m.id, receipts);
  }
  return out;
}
