// Message history, sending and deleting (send-message.ts, delete-message.ts). A message is committed before the
// answer and before any event.
import fp from 'fastify-plugin';
import { requireMember } from '../conversations/membership';
import { contractRoute } from '../http/contract-route';
import { badRequest } from '../http/errors';
import { createMessageDeleter } from './delete-message';
import { toMessages } from './message-view';
import { createMessageSender } from './send-message';

/** History, sending and deleting. */
export const messagesRoutes = fp(
  async (app) => {
    const { db, lists, realtime, push } = app;

    contractRoute(app, 'messages', async ({ userId, params, query }) => {
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

    const send = createMessageSender({ db, lists, realtime, push });
    contractRoute(app, 'send', ({ userId, body }) => send(userId, body));

    const deleteMessage = createMessageDeleter({ db, lists, realtime });
    contractRoute(app, 'deleteMessage', async ({ userId, body }) => {
      await deleteMessage(userId, body.messageId);
      return { ok: true as const };
    });
  },
  {
    name: 'messages-routes',
    encapsulate: true,
    decorators: { fastify: ['db', 'lists', 'realtime', 'push', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'push'],
  },
);
