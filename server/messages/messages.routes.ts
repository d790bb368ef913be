// Message history, sending and deleting (send-message.ts, delete-message.ts), and the deletions a closed device missed. A message is committed before the
// answer and before any event.
import fp from 'fastify-plugin';
import { LIMITS } from '../../src/contract/limits';
import { memberOf } from '../conversations/membership';
import { contractRoute } from '../http/contract-route';
import { chatMedia } from './chat-media';
import { createMessageDeleter } from './delete-message';
import { messageAtDate } from './message-at-date';
import { createPins } from './message-pins';
import { toMessages } from './message-view';
import { notHiddenBy } from './not-hidden';
import { seqBefore } from './page-cursor';
import { createMessageSender } from './send-message';

/** How far back of the server's now an answer of deletions reaches again next time (writes still landing). */
const DELETIONS_SETTLE_MS = 5_000;

/** History, sending and deleting. */
export const messagesRoutes = fp(
  async (app) => {
    const { blocks, clock, db, lists, metrics, realtime, push, previews } = app;

    contractRoute(app, 'messages', async ({ userId, params, query }) => {
      const me = await memberOf(db, params.id, userId);
      let q = db
        .selectFrom('messages')
        .selectAll()
        .where('conversation_id', '=', params.id)
        .where('deleted_at', 'is', null)
        // Thread replies are read in their thread (GET /api/threads/:id).
        .where('thread_root_id', 'is', null)
        // Not those the user hid for themselves (a probe of the hidden table's key per row, usually empty).
        .where(notHiddenBy(userId, 'messages.id'))
        // One who joined later sees from their joining on.
        .$if(me.visibleFromSeq > 0, (x) => x.where('seq', '>', me.visibleFromSeq))
        .orderBy('seq', 'desc')
        .limit(query.limit + 1);
      if (query.before) q = q.where('seq', '<', await seqBefore(db, query.before, { conversationId: params.id }));
      const rows = await q.execute();
      const hasMore = rows.length > query.limit;
      const page = rows.slice(0, query.limit).reverse();
      return { messages: await toMessages(db, page, userId), hasMore };
    });

    contractRoute(app, 'chatMedia', ({ userId, params, query }) =>
      chatMedia(db, { userId, conversationId: params.id, ...query }),
    );

    contractRoute(app, 'messageAtDate', async ({ userId, params, query }) => ({
      messageId: await messageAtDate(db, userId, params.id, query.date, query.tz),
    }));

    const send = createMessageSender({ db, lists, realtime, push, blocks, previews });
    contractRoute(app, 'send', async ({ userId, body }) => {
      const answer = await send(userId, body);
      metrics.messagesSent.inc();
      return answer;
    });

    contractRoute(app, 'deletedMessages', async ({ userId, query }) => {
      // A deletion written a moment ago may not be visible to this read yet: the next ask starts a little earlier
      // (the device's socket has heard those anyway).
      const settled = new Date(clock.now() - DELETIONS_SETTLE_MS).toISOString();
      if (!query.since) return { deleted: [], until: settled, more: false };
      const since = new Date(query.since).toISOString();
      const [deletedRows, hiddenRows] = await Promise.all([
        db
          .selectFrom('messages as m')
          .innerJoin('conversation_members as cm', 'cm.conversation_id', 'm.conversation_id')
          .select(['m.id', 'm.conversation_id', 'm.deleted_at as at'])
          .where('cm.user_id', '=', userId)
          .where('m.deleted_at', 'is not', null)
          .where('m.deleted_at', '>=', since)
          .orderBy('m.deleted_at')
          .limit(LIMITS.deletionsPageMax + 1)
          .execute(),
        // Hidden for this user on another device: gone from this one's store too.
        db
          .selectFrom('hidden_messages')
          .select(['message_id as id', 'conversation_id', 'hidden_at as at'])
          .where('user_id', '=', userId)
          .where('hidden_at', '>=', since)
          .orderBy('hidden_at')
          .limit(LIMITS.deletionsPageMax + 1)
          .execute(),
      ]);
      const rows = [...deletedRows, ...hiddenRows].sort((a, b) => String(a.at).localeCompare(String(b.at)));
      const more = rows.length > LIMITS.deletionsPageMax;
      const page = rows.slice(0, LIMITS.deletionsPageMax);
      const last = page[page.length - 1]?.at ?? since;
      return {
        deleted: page.map((r) => ({ id: r.id, conversationId: r.conversation_id })),
        until: more ? String(last) : settled > since ? settled : since,
        more,
      };
    });

    const pins = createPins({ db, lists, realtime });
    const deleteMessage = createMessageDeleter({ db, lists, realtime, unpin: pins.deleted });
    contractRoute(app, 'deleteMessage', async ({ userId, body }) => {
      await deleteMessage(userId, body.messageId);
      return { ok: true as const };
    });
  },
  {
    name: 'messages-routes',
    encapsulate: true,
    decorators: {
      fastify: ['blocks', 'clock', 'db', 'lists', 'metrics', 'realtime', 'push', 'previews', 'authenticate'],
    },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'metrics', 'push', 'blocks', 'previews'],
  },
);
