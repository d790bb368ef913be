// Message history, sending and deleting. A message is committed before the answer and before any event.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Message } from '../../src/contract/entities';
import type { AppContext } from '../context';
import { membersFor, requireMember } from '../conversations/membership';
import { isUniqueViolation } from '../db/database';
import { type Authenticate, contractRoute } from '../http/contract-route';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { toMessages } from './message-view';

const MESSAGE_NOT_FOUND = 'Сообщение не найдено';

/** '/uploads/x.png' or 'https://host/uploads/x.png' → '/uploads/x.png' (the stored url). */
function uploadPath(url: string): string {
  try {
    return new URL(url, 'http://local').pathname;
  } catch {
    return url;
  }
}

export function messagesRoutes(app: FastifyInstance, ctx: AppContext, authenticate: Authenticate): void {
  const { db } = ctx;

  const visibleMessage = (id: string) =>
    db.selectFrom('messages').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

  contractRoute(app, authenticate, 'messages', async ({ userId, params, query }) => {
    await requireMember(db, params.id, userId);
    let q = db
      .selectFrom('messages')
      .selectAll()
      .where('conversation_id', '=', params.id)
      .where('deleted_at', 'is', null)
      .orderBy('seq', 'desc')
      .limit(query.limit + 1);
    if (query.before) {
      const cursor = await db
        .selectFrom('messages')
        .select('seq')
        .where('id', '=', query.before)
        .where('conversation_id', '=', params.id)
        .executeTakeFirst();
      if (!cursor) throw badRequest('before: сообщение не найдено в этой беседе');
      q = q.where('seq', '<', cursor.seq);
    }
    const rows = await q.execute();
    const hasMore = rows.length > query.limit;
    const page = rows.slice(0, query.limit).reverse();
    return { messages: await toMessages(db, page), hasMore };
  });

  async function existingByClientId(userId: string, clientMessageId: string, conversationId: string) {
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('sender_id', '=', userId)
      .where('client_message_id', '=', clientMessageId)
      .executeTakeFirst();
    if (row && row.conversation_id !== conversationId) {
      throw conflict('clientMessageId уже использован для другой беседы');
    }
    return row;
  }

  contractRoute(app, authenticate, 'send', async ({ userId, body }) => {
    const members = await membersFor(db, body.conversationId, userId);
    if (body.clientMessageId) {
      const first = await existingByClientId(userId, body.clientMessageId, body.conversationId);
      if (first) return { message: (await toMessages(db, [first]))[0] };
    }

    const content = body.content.trim();
    const attachments = body.attachments ?? [];
    if (body.type === 'TEXT' && !content) throw badRequest('Сообщение не может быть пустым');
    if (body.type === 'TEXT' && attachments.length) throw badRequest('Вложения отправляются сообщением типа IMAGE или FILE');
    if (body.type !== 'TEXT' && attachments.length === 0) throw badRequest('Прикрепите хотя бы один файл');

    if (body.replyToId) {
      const original = await visibleMessage(body.replyToId);
      if (!original || original.conversation_id !== body.conversationId) {
        throw badRequest('Ответить можно только на сообщение из этой беседы');
      }
    }

    const paths = attachments.map((a) => uploadPath(a.url));
    const uploads = paths.length
      ? await db
          .selectFrom('uploads')
          .select(['id', 'url', 'kind'])
          .where('url', 'in', paths)
          .where('owner_id', '=', userId)
          .execute()
      : [];
    const uploadByUrl = new Map(uploads.map((u) => [u.url, u]));
    const uploadIds = paths.map((p, i) => {
      const u = uploadByUrl.get(p);
      if (!u) throw badRequest('Вложение должно быть вашим загруженным файлом');
      if (attachments[i].type === 'IMAGE' && u.kind !== 'IMAGE') throw badRequest('Вложение не является изображением');
      return u.id;
    });
    if (body.type === 'IMAGE' && uploads.some((u) => u.kind !== 'IMAGE')) {
      throw badRequest('Сообщение типа IMAGE может содержать только изображения');
    }

    const now = new Date().toISOString();
    const id = randomUUID();
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('messages')
          .values({
            id,
            conversation_id: body.conversationId,
            sender_id: userId,
            type: body.type,
            content,
            reply_to_id: body.replyToId ?? null,
            client_message_id: body.clientMessageId ?? null,
            created_at: now,
            deleted_at: null,
          })
          .execute();
        if (uploadIds.length) {
          await trx
            .insertInto('message_attachments')
            .values(uploadIds.map((upload_id, position) => ({ message_id: id, position, upload_id })))
            .execute();
        }
        await trx.updateTable('conversations').set({ last_message_at: now }).where('id', '=', body.conversationId).execute();
      });
    } catch (err) {
      // A concurrent retry with the same clientMessageId won the race: answer with its message.
      if (body.clientMessageId && isUniqueViolation(err)) {
        const first = await existingByClientId(userId, body.clientMessageId, body.conversationId);
        if (first) return { message: (await toMessages(db, [first]))[0] };
      }
      throw err;
    }

    const row = await db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const [message] = await toMessages(db, [row]);
    publishNew(message, members);
    return { message };
  });

  function publishNew(message: Message, members: string[]): void {
    ctx.realtime.toConversation(message.conversationId, 'message:new', { message });
    const others = members.filter((m) => m !== message.senderId);
    ctx.realtime.toUsers(others, 'message:notify', { conversationId: message.conversationId, message });
  }

  contractRoute(app, authenticate, 'deleteMessage', async ({ userId, body }) => {
    const row = await visibleMessage(body.messageId);
    if (!row) throw notFound(MESSAGE_NOT_FOUND);
    const members = await membersFor(db, row.conversation_id, userId).catch(() => {
      throw notFound(MESSAGE_NOT_FOUND);
    });
    if (row.sender_id !== userId) throw forbidden('Удалить сообщение может только отправитель');
    await db
      .updateTable('messages')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', row.id)
      .where('deleted_at', 'is', null)
      .execute();
    ctx.realtime.toUsers(members, 'message:deleted', { conversationId: row.conversation_id, messageId: row.id });
    return { ok: true as const };
  });
}
