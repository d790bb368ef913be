// Threads («Обсуждения», docs/behaviour.md §10): a thread's page of replies, following and reading it, the
// caller's followed threads with their unread replies, and a group's switch. Replies are sent through the send
// route with `threadRootId` (server/messages/send-message.ts). Every route checks that the caller may see the root.
import fp from 'fastify-plugin';
import { loadConversation } from '../conversations/conversation-view';
import { ADMINS_ONLY, NOT_A_GROUP } from '../conversations/group-members';
import { memberIds, memberOf } from '../conversations/membership';
import { contractRoute } from '../http/contract-route';
import { badRequest, forbidden } from '../http/errors';
import { toMessages } from '../messages/message-view';
import { notHiddenBy } from '../messages/not-hidden';
import { seqBefore } from '../messages/page-cursor';
import { threadRootFor } from './thread-access';
import { followedThreads, isFollowing, readUpTo, setFollowing } from './thread-follows';

export const threadsRoutes = fp(
  async (app) => {
    const { db, lists, realtime } = app;

    contractRoute(app, 'thread', async ({ userId, params, query }) => {
      const { root } = await threadRootFor(db, userId, params.id);
      let q = db
        .selectFrom('messages')
        .selectAll()
        .where('thread_root_id', '=', root.id)
        .where('deleted_at', 'is', null)
        .where(notHiddenBy(userId, 'messages.id'))
        .orderBy('seq', 'desc')
        .limit(query.limit + 1);
      if (query.before) q = q.where('seq', '<', await seqBefore(db, query.before, { threadRootId: root.id }));
      const [rows, following] = await Promise.all([q.execute(), isFollowing(db, root.id, userId)]);
      const hasMore = rows.length > query.limit;
      const page = rows.slice(0, query.limit).reverse();
      const [rootView, messages] = await Promise.all([toMessages(db, [root]), toMessages(db, page, userId)]);
      return { root: rootView[0] as NonNullable<(typeof rootView)[0]>, messages, hasMore, following };
    });

    contractRoute(app, 'followThread', async ({ userId, body }) => {
      const { root } = await threadRootFor(db, userId, body.rootId);
      await setFollowing(db, root.id, root.conversation_id, userId, body.follow);
      realtime.toUser(userId, 'thread:read', { rootId: root.id });
      return { following: body.follow };
    });

    contractRoute(app, 'readThread', async ({ userId, body }) => {
      const { root } = await threadRootFor(db, userId, body.rootId);
      await readUpTo(db, root.id, userId);
      realtime.toUser(userId, 'thread:read', { rootId: root.id });
      return { ok: true as const };
    });

    contractRoute(app, 'followedThreads', async ({ userId }) => {
      const followed = await followedThreads(db, userId);
      if (!followed.length) return { threads: [] };
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where(
          'id',
          'in',
          followed.map((f) => f.rootId),
        )
        .execute();
      const roots = new Map((await toMessages(db, rows)).map((m) => [m.id, m]));
      const threads = followed.flatMap((f) => {
        const root = roots.get(f.rootId);
        return root ? [{ conversationId: f.conversationId, root, unread: f.unread }] : [];
      });
      // Newest reply first; a followed root without replies yet sorts by its own time.
      const at = (t: (typeof threads)[number]) => t.root.thread?.lastReplyAt ?? t.root.createdAt;
      threads.sort((a, b) => (at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : 0));
      return { threads };
    });

    contractRoute(app, 'threadsSetting', async ({ userId, body }) => {
      const me = await memberOf(db, body.conversationId, userId);
      const conversation = await db
        .selectFrom('conversations')
        .select(['direct_key', 'secret', 'threads_off'])
        .where('id', '=', body.conversationId)
        .executeTakeFirstOrThrow();
      if (conversation.direct_key !== null || Number(conversation.secret) === 1) throw badRequest(NOT_A_GROUP);
      if (me.role !== 'OWNER' && me.role !== 'ADMIN') throw forbidden(ADMINS_ONLY);
      const off = body.enabled ? 0 : 1;
      if (Number(conversation.threads_off) !== off) {
        await db.updateTable('conversations').set({ threads_off: off }).where('id', '=', body.conversationId).execute();
        const members = await memberIds(db, body.conversationId);
        lists.changed(members, body.conversationId);
        const entry = await loadConversation({ db, realtime }, userId, body.conversationId);
        if (entry) realtime.toUsers(members, 'conversation:updated', { conversation: entry.conversation });
        return { conversation: entry?.conversation ?? null };
      }
      const entry = await loadConversation({ db, realtime }, userId, body.conversationId);
      return { conversation: entry?.conversation ?? null };
    });
  },
  {
    name: 'threads-routes',
    encapsulate: true,
    decorators: { fastify: ['db', 'lists', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists'],
  },
);
