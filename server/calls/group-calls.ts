// A group's call is a room (docs/calls.md "Group calls"): starting it opens it for the group, any member joins
// and leaves it while it is on (late too), it ends when the last one leaves or an owner or admin ends it for all.
// Who is in it lives in the database (calls.group_call, group_call_participants), so every server process sees
// the same call: one open call per group (a partial unique index), one device per person in it (the socket the
// row names; joining from another moves it). A participant whose connection died is marked gone; when everyone
// in the call has been gone for GROUP_CALL_GONE_MS the call ends by itself. Each change reaches every member
// as groupCall:state; the end writes one CALL entry with who took part, in the transaction that closes the row,
// so the call is logged once whatever number of processes end it at once.
import { randomUUID } from 'node:crypto';
import type { GroupCall, Message } from '../../src/contract/entities';
import type { Clock, ClockTimer } from '../clock';
import type { ConversationListCache } from '../conversations/list-cache';
import { isMuted } from '../conversations/chat-settings-view';
import { isMember, memberIds, memberList, memberOf } from '../conversations/membership';
import { type Database, isUniqueViolation } from '../db/database';
import { badRequest, forbidden, notFound } from '../http/errors';
import { newMessageId } from '../messages/message-id';
import { freshMessage, toCallInfo } from '../messages/message-view';
import type { RealtimeHub } from '../realtime/hub';
import { markCallEntrySeen } from './call-entry-read';

/**
 * A group call rings the other members in groups up to this size; in larger groups nobody rings: the members who
 * have not muted the group are told once that it started (groupCall:started, a notification, a push) and see the bar.
 */
export const GROUP_CALL_RING_MAX = 20;
/** A group call whose participants' connections all died this long ago ends by itself. */
export const GROUP_CALL_GONE_MS = 30_000;

export const GROUP_ONLY = 'Групповой звонок можно начать только в группе';
export const CALL_OVER = 'Звонок уже закончился';
export const END_FOR_ALL_ADMINS = 'Завершить звонок для всех могут только владелец и администраторы группы';
export const MODERATE_ADMINS = 'Выключать микрофон и удалять из звонка могут только владелец и администраторы группы';
export const NOT_IN_CALL = 'Этого участника нет в звонке';
export const HAND_IN_CALL = 'Поднять руку можно только в звонке';
export const NOT_YOURSELF = 'Себя выключить или удалить так нельзя: для этого есть кнопки звонка';

export interface GroupCallDeps {
  db: Database;
  clock: Clock;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toUsers' | 'toConversation' | 'toUsersOutside'>;
}

/** What a join did: whether it opened the call, and whether it moved the person's place from another socket. */
export interface Joined {
  opened: boolean;
  moved: boolean;
}

export type GroupCalls = ReturnType<typeof createGroupCalls>;

export function createGroupCalls({ db, clock, lists, realtime }: GroupCallDeps) {
  const timers = new Set<ClockTimer>();
  const iso = () => new Date(clock.now()).toISOString();

  const openCall = (conversationId: string) =>
    db
      .selectFrom('calls')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('group_call', '=', 1)
      .where('outcome', 'is', null)
      .executeTakeFirst();

  /** Who is in call `callId` now, in joining order. */
  const present = async (callId: string) =>
    (
      await db
        .selectFrom('group_call_participants')
        .select('user_id')
        .where('call_id', '=', callId)
        .where('left_at', 'is', null)
        .orderBy('joined_at')
        .orderBy('user_id')
        .execute()
    ).map((r) => r.user_id);

  /** Raised hands in call `callId`, in the order they were raised. */
  const hands = async (callId: string) =>
    (
      await db
        .selectFrom('group_call_participants')
        .select('user_id')
        .where('call_id', '=', callId)
        .where('left_at', 'is', null)
        .where('hand_at', 'is not', null)
        .orderBy('hand_at')
        .orderBy('user_id')
        .execute()
    ).map((r) => r.user_id);

  async function stateOf(conversationId: string): Promise<GroupCall | null> {
    const call = await openCall(conversationId);
    if (!call) return null;
    return {
      conversationId,
      startedAt: call.started_at,
      startedBy: call.caller_id,
      video: Number(call.video) === 1,
      participantIds: await present(call.id),
      hands: await hands(call.id),
    };
  }

  /** Whether `userId` is in call `callId` now. */
  const inCall = async (callId: string, userId: string) =>
    !!(await db
      .selectFrom('group_call_participants')
      .select('user_id')
      .where('call_id', '=', callId)
      .where('user_id', '=', userId)
      .where('left_at', 'is', null)
      .executeTakeFirst());

  /** Every member hears the call as it is now; their list entries show it on the next read. */
  async function announce(conversationId: string): Promise<void> {
    const members = await memberIds(db, conversationId);
    if (!members.length) return;
    realtime.toUsers(members, 'groupCall:state', { conversationId, call: await stateOf(conversationId) });
    lists.changed(members, conversationId);
  }

  /** The caller as a member of a group (404 for a non-member, 400 for a direct chat). */
  async function groupMember(conversationId: string, userId: string) {
    const me = await memberOf(db, conversationId, userId);
    const conv = await db
      .selectFrom('conversations')
      .select('direct_key')
      .where('id', '=', conversationId)
      .executeTakeFirst();
    if (!conv) throw notFound();
    if (conv.direct_key !== null) throw badRequest(GROUP_ONLY);
    return me;
  }

  /** Puts `userId` in call `callId` from `socketId`; true when they were in it from another socket. */
  async function enter(callId: string, userId: string, socketId: string): Promise<boolean> {
    const before = await db
      .selectFrom('group_call_participants')
      .select(['socket_id', 'left_at', 'gone_at'])
      .where('call_id', '=', callId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const now = iso();
    await db
      .insertInto('group_call_participants')
      .values({
        call_id: callId,
        user_id: userId,
        socket_id: socketId,
        joined_at: now,
        left_at: null,
        gone_at: null,
        media_sid: null,
      })
      .onConflict((oc) =>
        oc
          .columns(['call_id', 'user_id'])
          .doUpdateSet({ socket_id: socketId, left_at: null, gone_at: null, media_sid: null }),
      )
      .execute();
    // The call was answered once a second person is in it (the entry's outcome).
    await db
      .updateTable('calls')
      .set({ answered_at: now })
      .where('id', '=', callId)
      .where('answered_at', 'is', null)
      .where('caller_id', '!=', userId)
      .execute();
    return !!before && before.left_at === null && before.gone_at === null && before.socket_id !== socketId;
  }

  /** Closes call `id` and writes its entry, unless another process or signal did first. */
  async function finish(id: string): Promise<Message | null> {
    const call = await db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst();
    if (!call || call.outcome) return null;
    const took = await db
      .selectFrom('group_call_participants')
      .select('user_id')
      .where('call_id', '=', id)
      .orderBy('joined_at')
      .orderBy('user_id')
      .execute();
    const participantIds = took.map((r) => r.user_id);
    const now = clock.now();
    const outcome = participantIds.length >= 2 ? 'answered' : 'missed';
    const durationSec = Math.max(0, Math.round((now - Date.parse(call.started_at)) / 1000));
    const messageId = newMessageId(now);
    const createdAt = new Date(now).toISOString();
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
        .set({
          outcome,
          ended_at: createdAt,
          duration_sec: durationSec,
          message_id: messageId,
          participant_ids: participantIds.join(','),
        })
        .where('id', '=', id)
        .where('outcome', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await trx
        .updateTable('group_call_participants')
        .set({ left_at: createdAt, hand_at: null })
        .where('call_id', '=', id)
        .where('left_at', 'is', null)
        .execute();
      await trx.insertInto('messages').values(row).execute();
      // Who took part has seen the call: the entry is no news to them (only where nothing older is unread, as for
      // a direct call; a group's SYSTEM entries never count). Members who never came keep it unread: a missed call.
      const took = participantIds.filter((u) => u !== call.caller_id);
      readBy = await markCallEntrySeen(trx, { conversationId: call.conversation_id, messageId }, took, {
        skipSystem: true,
      });
      return true;
    });
    if (!won) return null;
    const message = freshMessage(row, null, [], {
      call: toCallInfo({
        video: call.video,
        outcome,
        caller_id: call.caller_id,
        duration_sec: durationSec,
        group_call: 1,
        participant_ids: participantIds.join(','),
      }),
    });
    message.receipts = readBy.map((userId) => ({ userId, status: 'READ' as const }));
    const members = await memberIds(db, call.conversation_id);
    const others = members.filter((m) => m !== call.caller_id);
    lists.changed(members, call.conversation_id);
    realtime.toConversation(call.conversation_id, 'message:new', { message });
    realtime.toUsersOutside(others, call.conversation_id, 'message:notify', {
      conversationId: call.conversation_id,
      message,
    });
    return message;
  }

  /** Ends the call when nobody is in it any more. */
  async function endIfEmpty(callId: string): Promise<void> {
    if (!(await present(callId)).length) await finish(callId);
  }

  /** Takes out whoever has been gone long enough; the call ends if nobody is left. */
  async function sweep(callId: string, conversationId: string): Promise<void> {
    const before = new Date(clock.now() - GROUP_CALL_GONE_MS).toISOString();
    const res = await db
      .updateTable('group_call_participants')
      .set({ left_at: iso(), hand_at: null })
      .where('call_id', '=', callId)
      .where('left_at', 'is', null)
      .where('gone_at', 'is not', null)
      .where('gone_at', '<=', before)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return;
    await endIfEmpty(callId);
    await announce(conversationId);
  }

  return {
    stateOf,

    /** The call as `userId` may see it: a member of the conversation (404 otherwise); null in a direct chat. */
    async view(conversationId: string, userId: string): Promise<GroupCall | null> {
      await memberOf(db, conversationId, userId);
      return stateOf(conversationId);
    },

    /**
     * Opens the group's call with `userId` in it, or joins the one already on. `ring`: the members to ring (the
     * others, in a group up to GROUP_CALL_RING_MAX); `tell`: in a larger group, the others who have not muted it,
     * to be told it started. Both are empty when the call was on already.
     */
    async start(
      conversationId: string,
      userId: string,
      socketId: string,
      video: boolean,
    ): Promise<Joined & { ring: string[]; tell: string[] }> {
      await groupMember(conversationId, userId);
      let call = await openCall(conversationId);
      let opened = false;
      if (!call) {
        try {
          await db
            .insertInto('calls')
            .values({
              id: randomUUID(),
              conversation_id: conversationId,
              caller_id: userId,
              video: video ? 1 : 0,
              started_at: iso(),
              group_call: 1,
            })
            .execute();
          opened = true;
        } catch (err) {
          // Another member opened it at the same moment: this start joins theirs.
          if (!isUniqueViolation(err)) throw err;
        }
        call = await openCall(conversationId);
        if (!call) throw notFound(CALL_OVER);
      }
      const moved = await enter(call.id, userId, socketId);
      await announce(conversationId);
      const members = await memberList(db, conversationId);
      const others = opened ? members.filter((m) => m.id !== userId) : [];
      if (members.length <= GROUP_CALL_RING_MAX) return { opened, moved, ring: others.map((m) => m.id), tell: [] };
      const now = clock.now();
      const tell = others.filter((m) => !isMuted(m.mutedUntil, now)).map((m) => m.id);
      return { opened, moved, ring: [], tell };
    },

    /** Joins the call that is on (404 «Звонок уже закончился» when there is none). */
    async join(conversationId: string, userId: string, socketId: string): Promise<Joined> {
      await groupMember(conversationId, userId);
      const call = await openCall(conversationId);
      if (!call) throw notFound(CALL_OVER);
      const moved = await enter(call.id, userId, socketId);
      await announce(conversationId);
      return { opened: false, moved };
    },

    /** «Выйти из звонка»: only `userId` leaves; the last one out ends the call. */
    async leave(conversationId: string, userId: string): Promise<void> {
      await groupMember(conversationId, userId);
      const call = await openCall(conversationId);
      if (!call) return;
      await db
        .updateTable('group_call_participants')
        .set({ left_at: iso(), hand_at: null })
        .where('call_id', '=', call.id)
        .where('user_id', '=', userId)
        .where('left_at', 'is', null)
        .execute();
      await endIfEmpty(call.id);
      await announce(conversationId);
    },

    /** «Завершить для всех»: the group's owner and admins only (403 for the others). */
    async endForAll(conversationId: string, userId: string): Promise<void> {
      const me = await groupMember(conversationId, userId);
      if (me.role !== 'OWNER' && me.role !== 'ADMIN') throw forbidden(END_FOR_ALL_ADMINS);
      const call = await openCall(conversationId);
      if (!call) return;
      await finish(call.id);
      await announce(conversationId);
    },

    /** «Поднять руку» / «Опустить руку»: only someone in the call; raising it again keeps its place in the order. */
    async hand(conversationId: string, userId: string, raised: boolean): Promise<void> {
      await groupMember(conversationId, userId);
      const call = await openCall(conversationId);
      if (!call) throw notFound(CALL_OVER);
      if (!(await inCall(call.id, userId))) throw forbidden(HAND_IN_CALL);
      let q = db
        .updateTable('group_call_participants')
        .set({ hand_at: raised ? iso() : null })
        .where('call_id', '=', call.id)
        .where('user_id', '=', userId)
        .where('left_at', 'is', null);
      if (raised) q = q.where('hand_at', 'is', null);
      const res = await q.executeTakeFirst();
      if (Number(res.numUpdatedRows) > 0) await announce(conversationId);
    },

    /**
     * «Выключить микрофон» / «Удалить из звонка»: the group's owner and admins (403 for the others), of someone in
     * the call other than themselves (403 when they are not in it). A removal takes them out of the roster here; the
     * caller tells them and the media server.
     */
    async moderate(conversationId: string, userId: string, targetId: string, action: 'mute' | 'remove') {
      const me = await groupMember(conversationId, userId);
      if (me.role !== 'OWNER' && me.role !== 'ADMIN') throw forbidden(MODERATE_ADMINS);
      if (targetId === userId) throw badRequest(NOT_YOURSELF);
      const call = await openCall(conversationId);
      if (!call) throw notFound(CALL_OVER);
      if (!(await inCall(call.id, targetId))) throw forbidden(NOT_IN_CALL);
      if (action === 'mute') {
        realtime.toUsers([targetId], 'groupCall:muted', { conversationId });
        return;
      }
      await db
        .updateTable('group_call_participants')
        .set({ left_at: iso(), hand_at: null })
        .where('call_id', '=', call.id)
        .where('user_id', '=', targetId)
        .where('left_at', 'is', null)
        .execute();
      realtime.toUsers([targetId], 'groupCall:removed', { conversationId });
      await endIfEmpty(call.id);
      await announce(conversationId);
    },

    /** Members who lost the group (removed, left) are out of its call at once. */
    async dropped(conversationId: string, userIds: readonly string[]): Promise<void> {
      const call = await openCall(conversationId);
      if (!call || !userIds.length) return;
      const res = await db
        .updateTable('group_call_participants')
        .set({ left_at: iso(), hand_at: null })
        .where('call_id', '=', call.id)
        .where('user_id', 'in', userIds)
        .where('left_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return;
      await endIfEmpty(call.id);
      await announce(conversationId);
    },

    /**
     * A socket's connection ended: wherever it held someone's place, they are gone from now, and a check after
     * GROUP_CALL_GONE_MS takes out whoever did not come back (a rejoin from any socket clears it).
     */
    async disconnected(userId: string, socketId: string): Promise<void> {
      const rows = await db
        .selectFrom('group_call_participants as p')
        .innerJoin('calls as c', 'c.id', 'p.call_id')
        .select(['p.call_id', 'c.conversation_id'])
        .where('p.user_id', '=', userId)
        .where('p.socket_id', '=', socketId)
        .where('p.left_at', 'is', null)
        .where('c.outcome', 'is', null)
        .execute();
      if (!rows.length) return;
      // The check is due before the mark is written: whoever sees the mark can count on the check.
      const goneAt = iso();
      for (const r of rows) {
        const timer = clock.setTimeout(() => {
          timers.delete(timer);
          sweep(r.call_id, r.conversation_id).catch(() => {});
        }, GROUP_CALL_GONE_MS);
        timer.unref();
        timers.add(timer);
      }
      await db
        .updateTable('group_call_participants')
        .set({ gone_at: goneAt })
        .where('user_id', '=', userId)
        .where('socket_id', '=', socketId)
        .where('left_at', 'is', null)
        .where('gone_at', 'is', null)
        .execute();
    },

    /**
     * An external LiveKit's participant_joined (docs/calls.md "Group calls"): a member connected to the call's media
     * room is in the call, with `sid` as their connection. Nothing while no call is on (a late or retried event does
     * not open one), for a non-member, or for a connection that began before they left (`joinedAt`, ms) or that
     * already ended. Repeating it changes nothing.
     */
    async mediaJoined(conversationId: string, userId: string, sid: string, joinedAt: number): Promise<void> {
      const call = await openCall(conversationId);
      if (!call || !(await isMember(db, conversationId, userId))) return;
      const row = await db
        .selectFrom('group_call_participants')
        .select(['left_at', 'media_sid'])
        .where('call_id', '=', call.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (row && row.left_at === null) {
        await db
          .updateTable('group_call_participants')
          .set({ media_sid: sid, gone_at: null })
          .where('call_id', '=', call.id)
          .where('user_id', '=', userId)
          .where('left_at', 'is', null)
          .execute();
        return;
      }
      if (row && (row.media_sid === sid || (row.left_at !== null && Date.parse(row.left_at) >= joinedAt))) return;
      // Their place is the media connection's: no socket holds it (a socket's join takes it over).
      await enter(call.id, userId, '');
      await db
        .updateTable('group_call_participants')
        .set({ media_sid: sid })
        .where('call_id', '=', call.id)
        .where('user_id', '=', userId)
        .execute();
      await announce(conversationId);
    },

    /**
     * An external LiveKit's participant_left: the member whose connection `sid` was leaves the call, as «Выйти из
     * звонка» (the last one out ends it). Another sid (an older tab's, a retried event) changes nothing.
     */
    async mediaLeft(conversationId: string, userId: string, sid: string): Promise<void> {
      const call = await openCall(conversationId);
      if (!call) return;
      const res = await db
        .updateTable('group_call_participants')
        .set({ left_at: iso(), hand_at: null })
        .where('call_id', '=', call.id)
        .where('user_id', '=', userId)
        .where('media_sid', '=', sid)
        .where('left_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return;
      await endIfEmpty(call.id);
      await announce(conversationId);
    },

    /**
     * An external LiveKit's room_finished: the call is over for all, unless it started after the event (`at`, ms;
     * LiveKit's time has whole seconds, so the call's start is taken to its second): a late or retried event of an
     * earlier call leaves the next one alone.
     */
    async mediaFinished(conversationId: string, at: number): Promise<void> {
      const call = await openCall(conversationId);
      if (!call || Math.floor(Date.parse(call.started_at) / 1000) * 1000 > at) return;
      await finish(call.id);
      await announce(conversationId);
    },

    close(): void {
      for (const t of timers) clock.clearTimeout(t);
      timers.clear();
    },
  };
}
