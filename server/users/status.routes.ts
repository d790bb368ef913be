import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { type Authenticate, contractRoute } from '../http/contract-route';
import { notFound } from '../http/errors';
import { toOwnUser } from './user-view';

export function statusRoutes(app: FastifyInstance, ctx: AppContext, authenticate: Authenticate): void {
  const { db } = ctx;
  const load = async (id: string) => {
    const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Пользователь не найден');
    return row;
  };

  contractRoute(app, authenticate, 'me', async ({ userId }) => ({ user: toOwnUser(await load(userId)) }));

  contractRoute(app, authenticate, 'patchMe', async ({ userId, body }) => {
    const before = await load(userId);
    const set: Partial<typeof before> = {};
    if (body.avatarUrl !== undefined) set.avatar_url = body.avatarUrl || null;
    if (body.displayName !== undefined) set.display_name = body.displayName;
    if (body.bio !== undefined) set.bio = body.bio || null;
    if (body.status !== undefined) set.status = body.status;
    await db.updateTable('users').set(set).where('id', '=', userId).execute();
    const after = await load(userId);
    const shown = ['avatar_url', 'display_name', 'bio', 'status'] as const;
    if (shown.some((k) => after[k] !== before[k])) ctx.lists.changed([userId, ...(await relatedUserIds(ctx, userId))]);
    if (after.avatar_url !== before.avatar_url || after.display_name !== before.display_name) {
      const peers = await relatedUserIds(ctx, userId);
      ctx.realtime.toUsers([userId, ...peers], 'profile:update', {
        userId,
        avatarUrl: after.avatar_url,
        displayName: after.display_name,
      });
    }
    if (after.status !== before.status && ctx.realtime.isOnline(userId)) {
      const peers = await relatedUserIds(ctx, userId);
      ctx.realtime.toUsers([userId, ...peers], 'presence:update', {
        userId,
        status: after.status as 'ONLINE',
        lastSeenAt: after.last_seen_at,
      });
    }
    return { user: toOwnUser(after) };
  });
}

/** Users who may see this user's profile changes: friends and anyone sharing a conversation. */
export async function relatedUserIds(ctx: AppContext, userId: string): Promise<string[]> {
  const friends = await ctx.db
    .selectFrom('contacts')
    .select(['requester_id', 'addressee_id'])
    .where((eb) => eb.or([eb('requester_id', '=', userId), eb('addressee_id', '=', userId)]))
    .execute();
  const ids = new Set<string>();
  for (const f of friends) ids.add(f.requester_id === userId ? f.addressee_id : f.requester_id);
  const rows = await ctx.db
    .selectFrom('conversation_members as mine')
    .innerJoin('conversation_members as other', 'other.conversation_id', 'mine.conversation_id')
    .select('other.user_id')
    .where('mine.user_id', '=', userId)
    .where('other.user_id', '!=', userId)
    .execute();
  for (const r of rows) ids.add(r.user_id);
  return [...ids];
}
