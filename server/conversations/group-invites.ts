// «Ссылка-приглашение» (docs/groups.md): owner and admins create, list and revoke a group's links; anyone signed in
// sees a link's preview; joining is group-members.ts's joinByInvite. A code is 144 random bits in base64url.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { CreateInviteBody, GroupInvite } from '../../src/contract/api';
import type { Database } from '../db/database';
import type { GroupInvitesTable } from '../db/schema';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors';
import { ADMINS_ONLY, INVITE_GONE, INVITE_NOT_FOUND, NOT_A_GROUP } from './group-members';
import { memberOf } from './membership';

type Invite = z.output<typeof GroupInvite>;
const toInvite = (r: Omit<GroupInvitesTable, 'uses'> & { uses: number }): Invite => ({
  code: r.code,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  maxUses: r.max_uses === null ? null : Number(r.max_uses),
  uses: Number(r.uses),
});

const SECRET_NO_INVITES = 'В секретный чат нельзя пригласить по ссылке';

export function createGroupInvites(db: Database, now: () => number = Date.now) {
  /** The actor manages the group (owner or admin); 404 for a non-member, 400 for a direct chat. */
  async function requireManager(userId: string, conversationId: string) {
    const me = await memberOf(db, conversationId, userId);
    const c = await db
      .selectFrom('conversations')
      .select(['direct_key', 'secret'])
      .where('id', '=', conversationId)
      .executeTakeFirst();
    if (c?.direct_key) throw badRequest(NOT_A_GROUP);
    if (me.role !== 'OWNER' && me.role !== 'ADMIN') throw forbidden(ADMINS_ONLY);
    return { secret: Number(c?.secret) === 1 };
  }

  const usable = (r: { revoked_at: string | null; expires_at: string | null; max_uses: number | null; uses: number }) =>
    r.revoked_at === null &&
    (r.expires_at === null || Date.parse(r.expires_at) > now()) &&
    (r.max_uses === null || Number(r.uses) < Number(r.max_uses));

  async function create(userId: string, body: z.output<typeof CreateInviteBody>) {
    // A secret chat takes in the friends its members add, never whoever holds a link (docs/secret-chats.md).
    if ((await requireManager(userId, body.conversationId)).secret) throw badRequest(SECRET_NO_INVITES);
    const row = {
      code: randomBytes(18).toString('base64url'),
      conversation_id: body.conversationId,
      created_by: userId,
      created_at: new Date(now()).toISOString(),
      expires_at: body.expiresAt ? new Date(body.expiresAt).toISOString() : null,
      max_uses: body.maxUses ?? null,
      revoked_at: null,
    };
    await db.insertInto('group_invites').values(row).execute();
    return { invite: toInvite({ ...row, uses: 0 }) };
  }

  /** The group's links that still work, newest first. */
  async function list(userId: string, conversationId: string) {
    await requireManager(userId, conversationId);
    const rows = await db
      .selectFrom('group_invites')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
    return { invites: rows.filter(usable).map(toInvite) };
  }

  async function revoke(userId: string, code: string) {
    const row = await db.selectFrom('group_invites').selectAll().where('code', '=', code).executeTakeFirst();
    if (!row) throw notFound(INVITE_NOT_FOUND);
    await requireManager(userId, row.conversation_id);
    await db
      .updateTable('group_invites')
      .set({ revoked_at: new Date(now()).toISOString() })
      .where('code', '=', code)
      .where('revoked_at', 'is', null)
      .execute();
    return { ok: true as const };
  }

  /** What the link shows before joining: 404 unknown, 410 expired, used up or revoked. */
  async function preview(userId: string, code: string) {
    const row = await db
      .selectFrom('group_invites as i')
      .innerJoin('conversations as c', 'c.id', 'i.conversation_id')
      .select(['i.revoked_at', 'i.expires_at', 'i.max_uses', 'i.uses', 'c.id', 'c.title', 'c.avatar_url'])
      .where('i.code', '=', code)
      .executeTakeFirst();
    if (!row) throw notFound(INVITE_NOT_FOUND);
    const members = await db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', row.id)
      .execute();
    const member = members.some((m) => m.user_id === userId);
    if (!member && !usable(row)) throw new HttpError(410, INVITE_GONE);
    return {
      conversationId: row.id,
      title: row.title,
      avatarUrl: row.avatar_url,
      memberCount: members.length,
      member,
    };
  }

  return { create, list, revoke, preview };
}
