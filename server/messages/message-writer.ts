// Stores new messages with group commit: the sends that reach this point while a transaction is running (or
// in the same event-loop turn) are written together in the next one, so one commit (one WAL append, one
// PostgreSQL round of BEGIN/COMMIT) serves many messages under load and a lone send still gets its own at
// once (a send waits up to GATHER_MS for company only while sends arrive faster than one per GATHER_MS).
// Nobody is answered before the transaction holding their message has committed. The idempotency check is the unique index on (sender_id,
// client_message_id): a repeated clientMessageId inserts nothing and the caller is told it was a duplicate.
//
// On SQLite the batch runs as a native better-sqlite3 transaction over statements prepared once (Kysely's
// transaction machinery cost as much as the commit itself: 106 µs against 63 µs per lone message), inside
// Kysely's lock on the connection. On PostgreSQL it is a Kysely transaction with the INSERT compiled once.
import type { Insertable } from 'kysely';
import { type Database, sqliteHandle } from '../db/database';
import { preparedQuery } from '../db/prepared';
import type { MessagesTable } from '../db/schema';
import { databaseFailure } from '../db/unavailable';

export interface NewMessage {
  row: Insertable<MessagesTable> & { id: string; conversation_id: string; created_at: string };
  /** Upload ids in attachment order. */
  uploadIds: string[];
  /** A VOICE message's duration and waveform (voice_notes). */
  voice?: { durationMs: number; waveform: number[] };
  /** The members it mentions (message_mentions; the row's `mentions` holds the same ids). */
  mentions?: readonly string[];
}

const voiceRow = (messageId: string, voice: NonNullable<NewMessage['voice']>) => ({
  message_id: messageId,
  duration_ms: voice.durationMs,
  waveform: voice.waveform.join(','),
});

/** 'stored', or 'duplicate' when the sender already has a message with this clientMessageId. */
export type WriteOutcome = 'stored' | 'duplicate';

export interface MessageWriter {
  write(message: NewMessage): Promise<WriteOutcome>;
  /** Resolves when nothing is queued or being written (tests, shutdown). */
  idle(): Promise<void>;
  /** Transactions committed and messages written so far (tests, diagnostics). */
  stats(): { commits: number; messages: number };
}

interface Pending {
  message: NewMessage;
  resolve(outcome: WriteOutcome): void;
  reject(err: unknown): void;
}

const MESSAGE_COLUMNS = [
  'id',
  'conversation_id',
  'sender_id',
  'type',
  'content',
  'reply_to_id',
  'client_message_id',
  'created_at',
  'deleted_at',
  'forwarded_from_user_id',
  'forwarded_from_name',
  'mentions',
  'control',
  'thread_root_id',
  'entities',
] as const;

const valuesOf = (row: NewMessage['row']) => MESSAGE_COLUMNS.map((c) => (row[c] ?? null) as string | null);

/** INSERT … ON CONFLICT (sender_id, client_message_id) DO NOTHING, one parameter per column in MESSAGE_COLUMNS order. */
const insertMessage = preparedQuery(MESSAGE_COLUMNS.length, (db, ...values) =>
  db
    .insertInto('messages')
    .values(Object.fromEntries(MESSAGE_COLUMNS.map((c, i) => [c, values[i]])) as Insertable<MessagesTable>)
    .onConflict((oc) => oc.columns(['sender_id', 'client_message_id']).doNothing()),
);

type WriteBatch = (messages: NewMessage[]) => Promise<WriteOutcome[]>;

/**
 * While sends arrive faster than one per GATHER_MS, a send waits up to GATHER_MS for others to share its
 * commit: at 1000 sends/s that took the app's CPU per delivery from ~420 to ~365 µs for +2 ms of median
 * latency. Slower traffic would wait for company that does not come: each send would pay 2 ms and a second
 * wake-up of the process, which on this kind of machine costs more than the work itself (a commit done
 * after a 2-4 ms sleep took 2-3× the CPU of one done at once), so it is committed at once.
 */
export const GATHER_MS = 2;
/** Weight of the newest interval in the smoothed time between sends. */
const SMOOTHING = 0.2;
/** Longer pauses count as this long, so one long pause does not hide a burst that starts after it. */
const IDLE_INTERVAL_MS = 50;

/** Says, on each send, whether company is likely within GATHER_MS (smoothed interval between sends below it). */
export function createGatherPolicy(now: () => number = () => performance.now()): { arrive(): boolean } {
  let last = Number.NEGATIVE_INFINITY;
  let interval = IDLE_INTERVAL_MS;
  return {
    arrive() {
      const t = now();
      interval += (Math.min(t - last, IDLE_INTERVAL_MS) - interval) * SMOOTHING;
      last = t;
      return interval < GATHER_MS;
    },
  };
}

function kyselyBatch(db: Database): WriteBatch {
  return (messages) =>
    db.transaction().execute(async (trx) => {
      const outcomes: WriteOutcome[] = [];
      for (const { row, uploadIds, voice, mentions } of messages) {
        const res = await insertMessage(trx, ...valuesOf(row));
        if (Number(res.numAffectedRows ?? 0) === 0) {
          outcomes.push('duplicate');
          continue;
        }
        outcomes.push('stored');
        if (uploadIds.length) {
          await trx
            .insertInto('message_attachments')
            .values(uploadIds.map((upload_id, position) => ({ message_id: row.id, position, upload_id })))
            .execute();
        }
        if (voice) await trx.insertInto('voice_notes').values(voiceRow(row.id, voice)).execute();
        if (mentions?.length) {
          await trx
            .insertInto('message_mentions')
            .values(mentions.map((user_id) => ({ message_id: row.id, user_id, conversation_id: row.conversation_id })))
            .execute();
        }
      }
      return outcomes;
    });
}

function sqliteBatch(db: Database): WriteBatch | null {
  const file = sqliteHandle(db);
  if (!file) return null;
  // The same SQL Kysely generates, so both paths store the same thing.
  const compiled = db
    .insertInto('messages')
    .values(Object.fromEntries(MESSAGE_COLUMNS.map((c) => [c, c])) as Insertable<MessagesTable>)
    .onConflict((oc) => oc.columns(['sender_id', 'client_message_id']).doNothing())
    .compile();
  if (compiled.parameters.join() !== MESSAGE_COLUMNS.join()) throw new Error('message INSERT parameters out of order');
  const insert = file.prepare(compiled.sql);
  const attach = file.prepare(
    db.insertInto('message_attachments').values({ message_id: '', position: 0, upload_id: '' }).compile().sql,
  );
  const addVoice = file.prepare(
    db.insertInto('voice_notes').values({ message_id: '', duration_ms: 0, waveform: '' }).compile().sql,
  );
  const mention = file.prepare(
    db.insertInto('message_mentions').values({ message_id: '', user_id: '', conversation_id: '' }).compile().sql,
  );
  const run = file.transaction((messages: NewMessage[]) =>
    messages.map(({ row, uploadIds, voice, mentions }): WriteOutcome => {
      if (insert.run(valuesOf(row)).changes === 0) return 'duplicate';
      uploadIds.forEach((uploadId, position) => {
        attach.run([row.id, position, uploadId]);
      });
      if (voice) {
        const v = voiceRow(row.id, voice);
        addVoice.run([v.message_id, v.duration_ms, v.waveform]);
      }
      for (const userId of mentions ?? []) mention.run([row.id, userId, row.conversation_id]);
      return 'stored';
    }),
  );
  return (messages) => db.connection().execute(async () => run.immediate(messages));
}

export function createMessageWriter(db: Database, options: { now?: () => number } = {}): MessageWriter {
  const writeBatch = sqliteBatch(db) ?? kyselyBatch(db);
  const gather = createGatherPolicy(options.now);
  let queue: Pending[] = [];
  let running: Promise<void> | null = null;
  let commits = 0;
  let messages = 0;

  async function commit(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await writeBatch(batch.map((p) => p.message));
      commits += 1;
      messages += batch.length;
      for (const [i, p] of batch.entries()) p.resolve(outcomes[i] as WriteOutcome);
    } catch (err) {
      // A database that is down or full fails each message alike: trying them one by one would only make every
      // sender wait once more for the same refusal.
      if (batch.length === 1 || databaseFailure(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      // The whole batch rolled back; one bad message must not fail the others: write each on its own.
      for (const p of batch) await commit([p]);
    }
  }

  const flush = () => running ?? drain();

  function drain(): void {
    running = (async () => {
      while (queue.length) {
        const batch = queue;
        queue = [];
        await commit(batch);
      }
      running = null;
    })();
  }

  return {
    write(message) {
      const wait = gather.arrive();
      return new Promise<WriteOutcome>((resolve, reject) => {
        queue.push({ message, resolve, reject });
        // Sends parsed in this turn join the batch, and under fast traffic those of the next GATHER_MS too;
        // a running transaction picks up what queues meanwhile.
        if (!running && queue.length === 1) {
          if (wait) setTimeout(flush, GATHER_MS);
          else setImmediate(flush);
        }
      });
    },
    async idle() {
      while (running || queue.length) await (running ?? new Promise((r) => setImmediate(r)));
    },
    stats: () => ({ commits, messages }),
  };
}
