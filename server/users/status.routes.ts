import fp from 'fastify-plugin';
import { contractRoute } from '../http/contract-route';
import { notFound } from '../http/errors';
import { relatedUserIds } from './related-users';
import { toOwnUser } from './user-view';

/** The signed-in user's profile and chosen status. */
export const statusRoutes = fp(
  async (app) => {
    const { db, lists, realtime } = app;
    const load = async (id: string) => {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('Пользователь не найден');
      return row;
    };

    contractRoute(app, 'me', async ({ userId }) => ({ user: toOwnUser(await load(userId)) }));

    contractRoute(app, 'patchMe', async ({ userId, body }) => {
      const before = await load(userId);
      const set: Partial<typeof before> = {};
      if (body.avatarUrl !== undefined) set.avatar_url = body.avatarUrl || null;
      if (body.displayName !== undefined) set.display_name = body.displayName;
      if (body.bio !== undefined) set.bio = body.bio || null;
      if (body.status !== undefined) set.status = body.status;
      if (body.messagePrivacy !== undefined) set.message_privacy = body.messagePrivacy;
      await db.updateTable('users').set(set).where('id', '=', userId).execute();
      const after = await load(userId);
      const shown = ['avatar_url', 'display_name', 'bio', 'status'] as const;
      if (shown.some((k) => after[k] !== before[k])) lists.changed([userId, ...(await relatedUserIds(db, userId))]);
      if (after.avatar_url !== before.avatar_url || after.display_name !== before.display_name) {
        const peers = await relatedUserIds(db, userId);
        realtime.toUsers([userId, ...peers], 'profile:update', {
          userId,
          avatarUrl: after.avatar_url,
          displayName: after.display_name,
        });
      }
      if (after.status !== before.status && realtime.isOnline(userId)) {
        const peers = await relatedUserIds(db, userId);
        realtime.toUsers([userId, ...peers], 'presence:update', {
          userId,
          status: after.status as 'ONLINE',
          lastSeenAt: after.last_seen_at,
        });
      }
      return { user: toOwnUser(after) };
    });
  },
  {
    name: 'status-routes',
    encapsulate: true,
    decorators: { fastify: ['db', 'lists', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists'],
  },
);
