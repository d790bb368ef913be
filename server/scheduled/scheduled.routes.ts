// «Запланированные» and «Напомнить» (docs/behaviour.md §10.32): a member schedules a text into a chat, lists,
// edits, sends now or deletes their own waiting items; a reminder of a message they can see goes into their
// «Избранное». The scheduler (scheduler.ts) sends at the time. Every route is the caller's own: another person's
// item answers 404, as one that does not exist.
import fp from 'fastify-plugin';
import type { Message } from '../../src/contract/entities';
import { SCHEDULE } from '../../src/contract/limits';
import { messagePreview } from '../../src/contract/notification';
import { memberOf } from '../conversations/membership';
import { isSecret } from '../conversations/secret-flag';
import { contractRoute } from '../http/contract-route';
import { badRequest, conflict, notFound } from '../http/errors';
import { createMessageSender } from '../messages/send-message';
import { ensureSavedChat, savedChatId } from '../saved/saved-chat';
import { customStatusRoutes, customStatusSweep } from '../users/custom-status';
import { createScheduler, newScheduledId, type ScheduledRow, toScheduledItem } from './scheduler';

export const TIME_PAST = 'Это время уже прошло: выберите время в будущем';
export const TOO_FAR = 'Запланировать можно не дальше чем на год вперёд';
export const TOO_MANY = `Запланировано слишком много: не больше ${SCHEDULE.pendingMax}`;
export const ITEM_NOT_FOUND = 'Запланированное сообщение не найдено';
export const ALREADY_SENT = 'Это сообщение уже отправлено';
export const NOT_IN_SECRET = 'В секретном чате нельзя запланировать сообщение или напоминание';

export const scheduledRoutes = fp(
  async (app) => {
    const { blocks, clock, db, lists, realtime, push } = app;
    const send = createMessageSender({ db, lists, realtime, push, blocks });

    function reminded(message: Message) {
      lists.changed([message.senderId], message.conversationId);
      realtime.toConversation(message.conversationId, 'message:new', { message });
      // The user's tabs that do not have «Избранное» open hear it as news (the badge, a sound).
      realtime.toUsersOutside([message.senderId], message.conversationId, 'message:notify', {
        conversationId: message.conversationId,
        message,
      });
      push.reminder(message);
    }

    const jobs = [customStatusSweep({ db, clock, realtime, lists })];
    const scheduler = createScheduler({ db, clock, send, reminded, log: app.log, jobs });
    app.addHook('onReady', async () => scheduler.start());
    app.addHook('onClose', async () => scheduler.stop());
    // Its routes live with the scheduler that clears a status at its time: setting one wakes it.
    app.register(customStatusRoutes, { wake: () => scheduler.changed() });

    /** The time as stored (ISO, UTC): ahead of now and at most SCHEDULE.maxAheadMs ahead. */
    function checkedTime(text: string): string {
      const at = Date.parse(text);
      const now = clock.now();
      if (at <= now) throw badRequest(TIME_PAST);
      if (at - now > SCHEDULE.maxAheadMs) throw badRequest(TOO_FAR);
      return new Date(at).toISOString();
    }

    async function room(userId: string) {
      const row = await db
        .selectFrom('scheduled_messages')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= SCHEDULE.pendingMax) throw badRequest(TOO_MANY);
    }

    async function insert(row: ScheduledRow) {
      await db.insertInto('scheduled_messages').values(row).execute();
      scheduler.changed();
      return { item: toScheduledItem(row) };
    }

    /** The caller's own waiting (or failed) item. */
    async function own(userId: string, id: string): Promise<ScheduledRow> {
      const row = await db
        .selectFrom('scheduled_messages')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) throw notFound(ITEM_NOT_FOUND);
      if (row.status === 'sent' || row.status === 'sending') throw conflict(ALREADY_SENT);
      return row;
    }

    contractRoute(app, 'scheduled', async ({ userId, params }) => {
      await memberOf(db, params.id, userId);
      const rows = await db
        .selectFrom('scheduled_messages')
        .selectAll()
        .where('user_id', '=', userId)
        .where('conversation_id', '=', params.id)
        .where('status', 'in', ['pending', 'failed'])
        .orderBy('send_at')
        .orderBy('id')
        .execute();
      return { items: rows.map(toScheduledItem) };
    });

    contractRoute(app, 'schedule', async ({ userId, body }) => {
      await memberOf(db, body.conversationId, userId);
      if (await isSecret(db, body.conversationId)) throw badRequest(NOT_IN_SECRET);
      const sendAt = checkedTime(body.sendAt);
      await room(userId);
      return insert({
        id: newScheduledId(),
        kind: 'message',
        user_id: userId,
        conversation_id: body.conversationId,
        content: body.content.trim(),
        source_message_id: null,
        send_at: sendAt,
        status: 'pending',
        failure: null,
        message_id: null,
        claimed_at: null,
        created_at: new Date(clock.now()).toISOString(),
      });
    });

    contractRoute(app, 'remind', async ({ userId, body }) => {
      const source = await db
        .selectFrom('messages')
        .select(['id', 'conversation_id', 'type', 'content', 'deleted_at', 'seq'])
        .where('id', '=', body.messageId)
        .executeTakeFirst();
      // Someone else's chat: the same answer as a message that does not exist.
      const me =
        source && !source.deleted_at ? await memberOf(db, source.conversation_id, userId).catch(() => null) : null;
      if (!source || !me || (me.visibleFromSeq > 0 && Number(source.seq) <= me.visibleFromSeq))
        throw notFound('Сообщение не найдено');
      if (source.type === 'ENCRYPTED') throw badRequest(NOT_IN_SECRET);
      const sendAt = checkedTime(body.remindAt);
      await room(userId);
      await ensureSavedChat(db, userId);
      return insert({
        id: newScheduledId(),
        kind: 'reminder',
        user_id: userId,
        conversation_id: savedChatId(userId),
        content: messagePreview(source.type as Message['type'], source.content),
        source_message_id: source.id,
        send_at: sendAt,
        status: 'pending',
        failure: null,
        message_id: null,
        claimed_at: null,
        created_at: new Date(clock.now()).toISOString(),
      });
    });

    contractRoute(app, 'editScheduled', async ({ userId, params, body }) => {
      const row = await own(userId, params.id);
      const changes: Partial<ScheduledRow> = {};
      if (body.content !== undefined) {
        if (row.kind === 'reminder') throw badRequest('У напоминания меняется только время');
        changes.content = body.content.trim();
      }
      if (body.sendAt !== undefined) changes.send_at = checkedTime(body.sendAt);
      // A failed one moved to a new time waits again.
      const next = { ...row, ...changes, status: 'pending', failure: null };
      const r = await db
        .updateTable('scheduled_messages')
        .set({ content: next.content, send_at: next.send_at, status: 'pending', failure: null })
        .where('id', '=', row.id)
        .where('status', 'in', ['pending', 'failed'])
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw conflict(ALREADY_SENT);
      scheduler.changed();
      return { item: toScheduledItem(next) };
    });

    contractRoute(app, 'sendScheduledNow', async ({ userId, params }) => {
      const row = await own(userId, params.id);
      // A failed one is tried again as it is now (the person may have been added back).
      if (row.status === 'failed') {
        await db
          .updateTable('scheduled_messages')
          .set({ status: 'pending', failure: null })
          .where('id', '=', row.id)
          .where('status', '=', 'failed')
          .execute();
      }
      const message = await scheduler.sendNow({ ...row, status: 'pending' });
      if (message) return { message };
      const after = await db
        .selectFrom('scheduled_messages')
        .select(['status', 'failure'])
        .where('id', '=', row.id)
        .executeTakeFirst();
      if (after?.status === 'failed') throw badRequest(after.failure ?? 'Не удалось отправить');
      throw conflict(ALREADY_SENT);
    });

    contractRoute(app, 'deleteScheduled', async ({ userId, params }) => {
      const row = await own(userId, params.id);
      const r = await db
        .deleteFrom('scheduled_messages')
        .where('id', '=', row.id)
        .where('status', 'in', ['pending', 'failed'])
        .executeTakeFirst();
      if (Number(r.numDeletedRows) !== 1) throw conflict(ALREADY_SENT);
      return { ok: true as const };
    });
  },
  {
    name: 'scheduled-routes',
    encapsulate: true,
    decorators: { fastify: ['blocks', 'clock', 'db', 'lists', 'realtime', 'push', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'push', 'blocks'],
  },
);
