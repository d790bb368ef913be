// «Заблокировать» / «Разблокировать» and the list in Settings. A block stops the direct chat both ways, calls,
// finding the blocker by EBLID and friend requests to them, and the blocker's presence for the blocked person
// (server/users/blocks.ts holds it; send-message.ts, call-relay.ts, contacts.routes.ts and related-users.ts ask it).
import fp from 'fastify-plugin';
import { contractRoute } from '../http/contract-route';
import { badRequest, notFound } from '../http/errors';
import { PUBLIC_USER_COLUMNS, toPublicUser } from './user-view';

export const blocksRoutes = fp(
  async (app) => {
    const { blocks, db, lists, realtime } = app;

    async function change(userId: string, otherId: string, on: boolean) {
      if (otherId === userId) throw badRequest('Нельзя заблокировать самого себя');
      const other = await db.selectFrom('users').select('id').where('id', '=', otherId).executeTakeFirst();
      if (!other) throw notFound('Пользователь не найден');
      // Both lists change: the blocker's direct chat shows the block, the other's loses the blocker's presence.
      if (await blocks.set(userId, otherId, on)) lists.changed([userId, otherId]);
      return { ok: true as const };
    }

    contractRoute(app, 'blockUser', ({ userId, body }) => change(userId, body.userId, true));
    contractRoute(app, 'unblockUser', ({ userId, body }) => change(userId, body.userId, false));
    contractRoute(app, 'blockedUsers', async ({ userId }) => {
      const ids = [...blocks.blockedBy(userId)];
      const rows = ids.length
        ? await db
            .selectFrom('users')
            .select(PUBLIC_USER_COLUMNS)
            .where('id', 'in', ids)
            .orderBy('display_name')
            .execute()
        : [];
      return { users: rows.map((r) => toPublicUser(r, (id) => realtime.isOnline(id))) };
    });
  },
  {
    name: 'blocks-routes',
    encapsulate: true,
    decorators: { fastify: ['blocks', 'db', 'lists', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'blocks'],
  },
);
