// Read receipts: per message (POST /messages/receipts) or a whole conversation at once. Both move the reader's
// read cursor (read-cursors.ts), so unread counts are the visible messages of others after it. Only what became
// read is announced, and only to those who show it (receipt-announcer.ts). Opening a chat (the whole-conversation
// one) also takes its «Пометить как непрочитанное» off.
import fp from 'fastify-plugin';
import { takeOffUnreadMark } from '../conversations/chat-settings';
import { membersFor } from '../conversations/membership';
import { contractRoute } from '../http/contract-route';
import { notFound } from '../http/errors';
import { createCursorWriter, latestSeq, type ReadMessage } from './read-cursors';
import { createReceiptAnnouncer } from './receipt-announcer';

/** Read receipts. */
export const receiptsRoutes = fp(
  async (app) => {
    const { clock, db, lists, realtime } = app;
    const announcer = createReceiptAnnouncer(realtime, clock);
    const cursors = createCursorWriter(db);
    app.addHook('onClose', async () => announcer.close());

    function announce(
      userId: string,
      conversationId: string,
      members: readonly string[],
      read: ReadMessage[],
      socketId?: string,
    ) {
      if (read.length === 0) return;
      // The reader's unread count, and the receipts of the latest message every member's list carries.
      lists.changed(members, conversationId);
      announcer.read(conversationId, userId, read, socketId);
    }

    contractRoute(app, 'receipts', async ({ userId, body }) => {
      const { missing, read } = await cursors.readNamed(userId, [...new Set(body.messageIds)]);
      // Unknown messages and other people's conversations are refused as a whole; nothing is stored.
      if (missing) throw notFound('Сообщение не найдено');
      for (const { conversationId, messages } of read) {
        if (messages.length)
          announce(userId, conversationId, await membersFor(db, conversationId, userId), messages, body.socketId);
      }
      return { ok: true as const };
    });

    contractRoute(app, 'markRead', async ({ userId, body }) => {
      const members = await membersFor(db, body.conversationId, userId);
      const read = await cursors.advance(userId, body.conversationId, await latestSeq(db, body.conversationId));
      announce(userId, body.conversationId, members, read, body.socketId);
      await takeOffUnreadMark({ db, lists, realtime, now: () => clock.now() }, userId, body.conversationId);
      return { ok: true as const };
    });
  },
  {
    name: 'receipts-routes',
    encapsulate: true,
    decorators: { fastify: ['clock', 'db', 'lists', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists'],
  },
);
