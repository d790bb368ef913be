// Sends what was scheduled (docs/behaviour.md §10.32) at its time, on the server's clock (clock.ts), whether or not
// any device of the sender is connected. Exactly once, with several processes and across restarts:
// - a process takes a due item with one conditional UPDATE (pending → sending, or a `sending` one whose taker has
//   held it past SCHEDULE.leaseMs, so died): of two processes asking at once, one changes the row;
// - the message it becomes carries the clientMessageId `scheduled-<id>`: the unique (sender_id,
//   client_message_id) index makes a second write of it (a taker that came back after its lease) a duplicate
//   that stores nothing, answered with the first message;
// - only then is the item marked sent, with the message's id.
// Each process wakes at the earliest due time it knows of and at least every SCHEDULE.pollMs (an item scheduled
// through another process), and looks once as it starts (items that fell due while every process was down).
// Other timed work rides the same passes as `jobs` (a status of one's own cleared at its time,
// server/users/custom-status.ts): each does its due work and names its next time; the timer is one.
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { ScheduledItem } from '../../src/contract/api';
import type { Message } from '../../src/contract/entities';
import { SCHEDULE } from '../../src/contract/limits';
import type { Clock, ClockTimer } from '../clock';
import type { Database } from '../db/database';
import type { ScheduledMessagesTable } from '../db/schema';
import { HttpError } from '../http/errors';
import { newMessageId } from '../messages/message-id';
import { freshMessage } from '../messages/message-view';
import type { SendInput } from '../messages/send-message';

export type ScheduledRow = Selectable<ScheduledMessagesTable>;

/** What an item says in «Запланированные» when the time came and it could not go. */
export const NOT_A_MEMBER_ANY_MORE = 'Не отправлено: вы больше не участник этой беседы';
export const SOURCE_GONE = 'Сообщение, о котором нужно было напомнить, удалено';

export const scheduledClientId = (id: string) => `scheduled-${id}`;
/** What a reminder says before the message it recalls. */
export const REMINDER_PREFIX = 'Напоминание: ';

export function toScheduledItem(r: ScheduledRow): ScheduledItem {
  return {
    id: r.id,
    kind: r.kind === 'reminder' ? 'reminder' : 'message',
    conversationId: r.conversation_id,
    content: r.content,
    sendAt: r.send_at,
    status: r.status === 'failed' ? 'failed' : 'pending',
    failure: r.failure,
    sourceMessageId: r.source_message_id,
    createdAt: r.created_at,
  };
}

export interface SchedulerDeps {
  db: Database;
  clock: Clock;
  /** The ordinary send path (send-message.ts): membership, blocks, events, pushes. */
  send(userId: string, body: SendInput): Promise<{ message: Message }>;
  /** A reminder stored in «Избранное»: tell the user's devices and push it. */
  reminded(message: Message): void;
  log: { error(obj: unknown, msg: string): void };
  /** Other timed work done on each pass, safe with several processes (each takes an item with a conditional write). */
  jobs?: readonly ScheduledJob[];
}

export interface ScheduledJob {
  /** Does what is due now. */
  run(): Promise<void>;
  /** When something is next due (ms), or null. */
  nextAt(): Promise<number | null>;
}

export interface Scheduler {
  /** Something was scheduled or moved here: wake at its time if that is sooner. */
  changed(): void;
  /** Takes one item now (for «Отправить сейчас»): the message it became, or null when another process has it. */
  sendNow(row: ScheduledRow): Promise<Message | null>;
  /** Resolves when no pass is running (tests, shutdown). */
  idle(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function createScheduler({ db, clock, send, reminded, log, jobs = [] }: SchedulerDeps): Scheduler {
  let timer: ClockTimer | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;

  const iso = (ms: number) => new Date(ms).toISOString();

  /** pending → sending (or a stale sending one taken over); true when this process got it. */
  async function claim(row: ScheduledRow): Promise<boolean> {
    const now = clock.now();
    const r = await db
      .updateTable('scheduled_messages')
      .set({ status: 'sending', claimed_at: iso(now) })
      .where('id', '=', row.id)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'pending'),
          eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', iso(now - SCHEDULE.leaseMs))]),
        ]),
      )
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async function finish(id: string, fields: { status: 'sent' | 'failed'; message_id?: string; failure?: string }) {
    await db
      .updateTable('scheduled_messages')
      .set({ status: fields.status, message_id: fields.message_id ?? null, failure: fields.failure ?? null })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .execute();
  }

  /** The reminder into «Избранное», written once whatever happens (the same unique index as a send's retry). */
  async function remind(row: ScheduledRow): Promise<Message | null> {
    const source = row.source_message_id
      ? await db
          .selectFrom('messages')
          .select(['id', 'conversation_id', 'deleted_at'])
          .where('id', '=', row.source_message_id)
          .executeTakeFirst()
      : undefined;
    if (!source || source.deleted_at) throw new HttpError(404, SOURCE_GONE);
    const clientId = scheduledClientId(row.id);
    const message = {
      id: newMessageId(clock.now()),
      conversation_id: row.conversation_id,
      sender_id: row.user_id,
      type: 'TEXT',
      content: `${REMINDER_PREFIX}${row.content}`,
      reply_to_id: null,
      client_message_id: clientId,
      created_at: iso(clock.now()),
      deleted_at: null,
      reminder_of: JSON.stringify({ conversationId: source.conversation_id, messageId: source.id }),
    };
    const r = await db
      .insertInto('messages')
      .values(message)
      .onConflict((oc) => oc.columns(['sender_id', 'client_message_id']).doNothing())
      .executeTakeFirst();
    if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) {
      const first = await db
        .selectFrom('messages')
        .select('id')
        .where('sender_id', '=', row.user_id)
        .where('client_message_id', '=', clientId)
        .executeTakeFirst();
      if (first) await finish(row.id, { status: 'sent', message_id: first.id });
      return null;
    }
    const sent = freshMessage(message, null, []);
    reminded(sent);
    return sent;
  }

  /** Sends a claimed item; a refusal the sender would have got (no longer a member, blocked) fails it for good. */
  async function deliver(row: ScheduledRow): Promise<Message | null> {
    try {
      const message =
        row.kind === 'reminder'
          ? await remind(row)
          : (
              await send(row.user_id, {
                conversationId: row.conversation_id,
                type: 'TEXT',
                content: row.content,
                clientMessageId: scheduledClientId(row.id),
              })
            ).message;
      if (message) await finish(row.id, { status: 'sent', message_id: message.id });
      return message;
    } catch (err) {
      if (err instanceof HttpError && err.statusCode < 500) {
        const failure = err.statusCode === 404 && row.kind === 'message' ? NOT_A_MEMBER_ANY_MORE : err.message;
        await finish(row.id, { status: 'failed', failure });
        return null;
      }
      // The database or the like: the item stays taken and is tried again once its lease runs out.
      throw err;
    }
  }

  async function due(): Promise<ScheduledRow[]> {
    const now = clock.now();
    return db
      .selectFrom('scheduled_messages')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('send_at', '<=', iso(now))]),
          eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', iso(now - SCHEDULE.leaseMs))]),
        ]),
      )
      .orderBy('send_at')
      .limit(100)
      .execute();
  }

  async function nextAt(): Promise<number | null> {
    const times = await Promise.all([nextMessageAt(), ...jobs.map((j) => j.nextAt())]);
    const known = times.filter((t): t is number => t !== null);
    return known.length ? Math.min(...known) : null;
  }

  async function nextMessageAt(): Promise<number | null> {
    const row = await db
      .selectFrom('scheduled_messages')
      .select('send_at')
      .where('status', '=', 'pending')
      .orderBy('send_at')
      .limit(1)
      .executeTakeFirst();
    return row ? Date.parse(row.send_at) : null;
  }

  async function pass(): Promise<void> {
    await sendDue();
    for (const job of jobs) {
      if (stopped) return;
      await job.run().catch((err) => log.error({ err }, 'scheduled job failed'));
    }
  }

  async function sendDue(): Promise<void> {
    for (;;) {
      const rows = await due();
      for (const row of rows) {
        if (stopped) return;
        if (!(await claim(row))) continue;
        await deliver(row).catch((err) => log.error({ err, scheduled: row.id }, 'scheduled send failed'));
      }
      if (rows.length < 100) return;
    }
  }

  function arm(at: number | null) {
    if (stopped) return;
    clock.clearTimeout(timer);
    timer = null;
    const wait = Math.min(SCHEDULE.pollMs, at === null ? SCHEDULE.pollMs : at - clock.now());
    // Due already (the clock moved on while the pass ran): at once, not at the clock's next tick.
    if (wait <= 0) {
      setImmediate(run);
      return;
    }
    timer = clock.setTimeout(run, wait);
    timer.unref();
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch((err) => log.error({ err }, 'scheduled pass failed'));
      } while (again && !stopped);
      arm(await nextAt().catch(() => null));
    })().finally(() => {
      running = null;
    });
  }

  return {
    changed() {
      if (stopped) return;
      if (running) again = true;
      else void nextAt().then(arm, () => arm(null));
    },
    async sendNow(row) {
      if (!(await claim(row))) return null;
      return deliver(row);
    },
    async idle() {
      while (running) await running;
    },
    start() {
      stopped = false;
      run();
    },
    async stop() {
      stopped = true;
      clock.clearTimeout(timer);
      timer = null;
      while (running) await running.catch(() => {});
    },
  };
}

export const newScheduledId = () => randomUUID();
