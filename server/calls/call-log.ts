// Calls as entries of the conversation. Every invitation is a row of `calls`; the first signal that ends it
// (a decline, a hang-up, the ring timing out, or this process's fallback timer when every tab vanished) sets
// its outcome with `update … where outcome is null`, and only the signal that won writes the CALL message, in
// the same transaction. So a call is logged once whatever number of tabs or server processes hear its end.
//
// Outcomes: answered (with the seconds between answer and hang-up), declined (the callee said no), missed (no
// answer within the ring time: both sides' ring timers fire at TIMINGS.ringTimeoutMs, the callee's as a
// decline, so an unanswered end that late counts as missed), cancelled (the caller hung up earlier).
// Missed and cancelled calls count as unread for the callees; answered and declined ones are read by them.
import { randomUUID } from 'node:crypto';
import type { CallOutcome, Message } from '../../src/contract/entities';
import { TIMINGS } from '../../src/contract/limits';
import type { Clock, ClockTimer } from '../clock';
import type { ConversationListCache } from '../conversations/list-cache';
import { otherMembers } from '../conversations/membership';
import type { Database } from '../db/database';
import { newMessageId } from '../messages/message-id';
import { freshMessage, toCallInfo } from '../messages/message-view';
import type { RealtimeHub } from '../realtime/hub';
import { markCallEntrySeen } from './call-entry-read';

/** A hang-up or decline this close to the ring timeout is the timeout itself (timers start a little apart). */
export const MISSED_SLACK_MS = 2_500;

export type CallSignal = 'decline' | 'end' | 'timeout';

/**
 * What the log uses: the database, the list caches and sockets a call entry goes out to, and the server's clock
 * (missed or declined is decided by how long a call rang).
 */
export interface CallLogDeps {
  db: Database;
  clock: Clock;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toConversation' | 'toUsersOutside'>;
}

export function createCallLog({ db, clock, lists, realtime }: CallLogDeps) {
  const timers = new Set<ClockTimer>();

  const openCall = (conversationId: string) =>
    db
      .selectFrom('calls')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('outcome', 'is', null)
      // A group's call is a room of its own (group-calls.ts): an invitation neither ends nor answers it.
      .where('group_call', '=', 0)
      .orderBy('started_at', 'desc')
      .executeTakeFirst();

  function outcomeOf(
    call: { caller_id: string; started_at: string; answered_at: string | null },
    signal: CallSignal,
    by: string,
    now: number,
  ): CallOutcome {
    if (call.answered_at) return 'answered';
    if (signal === 'timeout') return 'missed';
    const late = now - Date.parse(call.started_at) >= TIMINGS.ringTimeoutMs - MISSED_SLACK_MS;
    if (late) return 'missed';
    return by === call.caller_id ? 'cancelled' : 'declined';
  }

  /** Sets the outcome of call `id` and writes its entry, unless another signal did first. Returns the entry. */
  async function finish(id: string, signal: CallSignal, by: string): Promise<Message | null> {
    const call = await db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst();
    if (!call || call.outcome) return null;
    // An answered call that only timed out (every tab gone) is not over: it is logged when someone hangs up.
    if (signal === 'timeout' && call.answered_at) return null;
    const now = clock.now();
    const outcome = outcomeOf(call, signal, by, now);
    const durationSec =
      outcome === 'answered' && call.answered_at
        ? Math.max(0, Math.round((now - Date.parse(call.answered_at)) / 1000))
        : 0;
    const messageId = newMessageId(now);
    const createdAt = new Date(now).toISOString();
    const callees = await otherMembers(db, call.conversation_id, call.caller_id);
    const row = {
      id: messageId,
      conversation_id: call.conversation_id,
      sender_id: call.caller_id,
      type: 'CALL',
      content: '',
      reply_to_id: null,
      client_message_id: null,
      created_at: createdAt,
      deleted_at: null,
    };
    let readBy: string[] = [];
    const won = await db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('calls')
        .set({ outcome, ended_at: createdAt, duration_sec: durationSec, message_id: messageId })
        .where('id', '=', id)
        .where('outcome', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await trx.insertInto('messages').values(row).execute();
      // The callees took part in an answered or declined call: the entry is no news to them. Their read cursor
      // (server/messages/read-cursors.ts) moves past it only where nothing older is unread, so the entry never
      // marks earlier messages read.
      if (outcome === 'answered' || outcome === 'declined') {
        readBy = await markCallEntrySeen(trx, { conversationId: call.conversation_id, messageId }, callees, {
          skipSystem: false,
        });
      }
      return true;
    });
    if (!won) return null;
    const message = freshMessage(row, null, [], {
      call: toCallInfo({ video: call.video, outcome, caller_id: call.caller_id, duration_sec: durationSec }),
    });
    message.receipts = readBy.map((userId) => ({ userId, status: 'READ' as const }));
    const members = [call.caller_id, ...callees];
    lists.changed(members, call.conversation_id);
    realtime.toConversation(call.conversation_id, 'message:new', { message });
    realtime.toUsersOutside(callees, call.conversation_id, 'message:notify', {
      conversationId: call.conversation_id,
      message,
    });
    return message;
  }

  return {
    /** An invitation rang: earlier calls of the conversation still open are over (logged as ended now). */
    async started(conversationId: string, callerId: string, video: boolean): Promise<string> {
      // Each pass closes the open call (or another signal just did), so this ends.
      for (let open = await openCall(conversationId); open; open = await openCall(conversationId)) {
        await finish(open.id, open.answered_at ? 'end' : 'timeout', callerId);
      }
      const id = randomUUID();
      await db
        .insertInto('calls')
        .values({
          id,
          conversation_id: conversationId,
          caller_id: callerId,
          video: video ? 1 : 0,
          started_at: new Date(clock.now()).toISOString(),
        })
        .execute();
      const timer = clock.setTimeout(() => {
        timers.delete(timer);
        finish(id, 'timeout', callerId).catch(() => {});
      }, TIMINGS.callUnansweredLogMs);
      timer.unref();
      timers.add(timer);
      return id;
    },
    /** Someone other than the caller answered the open call. */
    async answered(conversationId: string, userId: string): Promise<void> {
      const open = await openCall(conversationId);
      if (!open || open.caller_id === userId || open.answered_at) return;
      await db
        .updateTable('calls')
        .set({ answered_at: new Date(clock.now()).toISOString() })
        .where('id', '=', open.id)
        .where('answered_at', 'is', null)
        .where('outcome', 'is', null)
        .execute();
    },
    /** A decline or a hang-up from `userId`: logs the conversation's open call, if any. */
    async ended(
      conversationId: string,
      userId: string,
      signal: Exclude<CallSignal, 'timeout'>,
    ): Promise<Message | null> {
      const open = await openCall(conversationId);
      if (!open) return null;
      // A decline after the call was answered is a busy tab saying no; the call goes on.
      if (signal === 'decline' && open.answered_at) return null;
      return finish(open.id, signal, userId);
    },
    close(): void {
      for (const t of timers) clock.clearTimeout(t);
      timers.clear();
    },
  };
}
