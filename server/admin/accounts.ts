// What an administrator does to an account (from «Администрирование» or `npm run admin`): deactivate and
// reactivate, end its sign-ins, change its role, and hand over a one-time password-reset link. A deactivated
// account's sign-ins end at once on every process (sign-ins.ts), sign-in is refused, and the people who know it see
// «Аккаунт отключён»; its messages stay. The server never runs without an active administrator.
import { createHash, randomBytes } from 'node:crypto';
import type { AccountState, AdminUser } from '../../src/contract/administration';
import type { ServerRole } from '../../src/contract/entities';
import { hashPassword } from '../auth/passwords';
import type { SignIns } from '../auth/sign-ins';
import type { Clock } from '../clock';
import type { ConversationListCache } from '../conversations/list-cache';
import type { Database } from '../db/database';
import type { UsersTable } from '../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../http/errors';
import type { RealtimeHub } from '../realtime/hub';
import { relatedUserIds } from '../users/related-users';
import { otherActiveAdmins } from './roles';

export const RESET_LINK_TTL_MS = 24 * 3600 * 1000;
export const USER_NOT_FOUND = 'Пользователь не найден';
export const LAST_ADMIN_DEACTIVATE = 'Нельзя отключить последнего администратора';
export const LAST_ADMIN_DEMOTE = 'Нельзя снять права с последнего администратора';
export const RESET_LINK_INVALID = 'Ссылка для сброса пароля недействительна или устарела';

const sha256 = (t: string) => createHash('sha256').update(t).digest('base64url');

type UserRow = Pick<
  UsersTable,
  | 'id'
  | 'username'
  | 'display_name'
  | 'eblid'
  | 'avatar_url'
  | 'role'
  | 'created_at'
  | 'last_seen_at'
  | 'deleted_at'
  | 'deactivated_at'
>;
export const ADMIN_USER_COLUMNS = [
  'id',
  'username',
  'display_name',
  'eblid',
  'avatar_url',
  'role',
  'created_at',
  'last_seen_at',
  'deleted_at',
  'deactivated_at',
] as const;

export const stateOf = (u: Pick<UsersTable, 'deleted_at' | 'deactivated_at'>): AccountState =>
  u.deleted_at ? 'deleted' : u.deactivated_at ? 'deactivated' : 'active';

export function toAdminUser(u: UserRow, sessions: number, secondFactor: boolean): AdminUser {
  return {
    id: u.id,
    username: u.username,
    displayName: u.display_name,
    eblid: u.eblid,
    avatarUrl: u.avatar_url,
    role: u.role === 'admin' ? 'admin' : 'member',
    state: stateOf(u),
    createdAt: u.created_at,
    lastSeenAt: u.last_seen_at,
    sessions,
    secondFactor,
  };
}

export interface AccountsDeps {
  db: Database;
  clock: Clock;
  signIns: Pick<SignIns, 'list' | 'end' | 'endAllBut'>;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toUsers'>;
}

export function createAccounts({ db, clock, signIns, lists, realtime }: AccountsDeps) {
  const now = () => new Date(clock.now()).toISOString();

  async function row(userId: string): Promise<UserRow> {
    const u = await db.selectFrom('users').select(ADMIN_USER_COLUMNS).where('id', '=', userId).executeTakeFirst();
    if (!u) throw notFound(USER_NOT_FOUND);
    return u;
  }

  async function sessionCounts(ids: readonly string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows = await db
      .selectFrom('sign_ins')
      .select(['user_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('user_id', 'in', ids)
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
  }

  /** The accounts among `ids` with a second factor: an authenticator app turned on, or a passkey. */
  async function withSecondFactor(ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const [apps, keys] = await Promise.all([
      db
        .selectFrom('two_factor')
        .select('user_id')
        .where('user_id', 'in', ids)
        .where('secret', 'is not', null)
        .execute(),
      db.selectFrom('passkeys').select('user_id').distinct().where('user_id', 'in', ids).execute(),
    ]);
    return new Set([...apps, ...keys].map((r) => r.user_id));
  }

  async function view(userId: string): Promise<AdminUser> {
    const u = await row(userId);
    const second = await withSecondFactor([userId]);
    return toAdminUser(u, (await sessionCounts([userId])).get(userId) ?? 0, second.has(userId));
  }

  async function live(userId: string): Promise<UserRow> {
    const u = await row(userId);
    if (u.deleted_at) throw conflict('Аккаунт удалён');
    return u;
  }

  async function announce(u: UserRow, deactivated: boolean): Promise<void> {
    const peers = await relatedUserIds(db, u.id);
    lists.changed([u.id, ...peers]);
    realtime.toUsers(peers, 'profile:update', {
      userId: u.id,
      avatarUrl: u.avatar_url,
      displayName: u.display_name,
      deactivated,
    });
  }

  async function endSessions(userId: string, reason: 'logout' | 'deactivated'): Promise<void> {
    await signIns.endAllBut(userId, null, reason);
  }

  return {
    view,
    sessionCounts,

    /** Users newest first, or those whose name, username or EBLID holds `q` (case and «ё» folded). */
    async list(
      q: string | undefined,
      cursor: string | undefined,
      limit = 50,
    ): Promise<{
      users: AdminUser[];
      nextCursor: string | null;
    }> {
      let rows: UserRow[];
      let nextCursor: string | null = null;
      if (q) {
        // SQLite's LIKE folds ASCII only: the few thousand accounts of a family or company server are filtered here.
        const fold = (s: string) => s.toLowerCase().replaceAll('ё', 'е');
        const needle = fold(q);
        const all = await db
          .selectFrom('users')
          .select(ADMIN_USER_COLUMNS)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
        rows = all
          .filter((u) => !u.username.startsWith('deleted:'))
          .filter((u) => fold(u.display_name).includes(needle) || fold(u.username).includes(needle) || u.eblid === q)
          .slice(0, limit);
      } else {
        const [at, id] = cursor ? cursor.split('|') : [];
        let query = db
          .selectFrom('users')
          .select(ADMIN_USER_COLUMNS)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit + 1);
        if (at && id) {
          query = query.where((eb) =>
            eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]),
          );
        }
        rows = await query.execute();
        if (rows.length > limit) {
          rows = rows.slice(0, limit);
          const last = rows[rows.length - 1];
          nextCursor = `${last.created_at}|${last.id}`;
        }
      }
      const counts = await sessionCounts(rows.map((r) => r.id));
      const second = await withSecondFactor(rows.map((r) => r.id));
      return { users: rows.map((u) => toAdminUser(u, counts.get(u.id) ?? 0, second.has(u.id))), nextCursor };
    },

    async deactivate(userId: string, by: string | null): Promise<AdminUser> {
      if (by === userId) throw badRequest('Нельзя отключить собственный аккаунт');
      const u = await live(userId);
      if (u.role === 'admin' && (await otherActiveAdmins(db, userId)) === 0) throw conflict(LAST_ADMIN_DEACTIVATE);
      if (!u.deactivated_at) {
        await db
          .updateTable('users')
          .set({ deactivated_at: now() })
          .where('id', '=', userId)
          .where('deactivated_at', 'is', null)
          .execute();
      }
      await endSessions(userId, 'deactivated');
      // Their own push subscriptions of ended sign-ins went with them; any left (none) would be harmless.
      await announce(u, true);
      return view(userId);
    },

    /**
     * Takes the account's second factor away (the authenticator app, its recovery codes, its passkeys) for someone
     * who lost them: the password alone signs in again, and every browser remembered for the old factor is forgotten
     * with it. Their sign-ins go on.
     */
    async resetSecondFactor(userId: string): Promise<AdminUser> {
      await live(userId);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await trx.deleteFrom('passkeys').where('user_id', '=', userId).execute();
      });
      return view(userId);
    },

    async reactivate(userId: string): Promise<AdminUser> {
      const u = await live(userId);
      if (u.deactivated_at) {
        await db.updateTable('users').set({ deactivated_at: null }).where('id', '=', userId).execute();
        await announce(u, false);
      }
      return view(userId);
    },

    async endAllSessions(userId: string): Promise<AdminUser> {
      await live(userId);
      await endSessions(userId, 'logout');
      return view(userId);
    },

    async setRole(userId: string, role: ServerRole): Promise<AdminUser> {
      const u = await live(userId);
      if (role === 'admin' && u.deactivated_at) throw conflict('Сначала включите аккаунт');
      if (role === 'member' && u.role === 'admin' && (await otherActiveAdmins(db, userId)) === 0) {
        throw conflict(LAST_ADMIN_DEMOTE);
      }
      await db.updateTable('users').set({ role }).where('id', '=', userId).execute();
      return view(userId);
    },

    /** A new one-time link replaces any earlier unused one; only its hash is kept. */
    async resetLink(userId: string, by: string | null): Promise<{ token: string; expiresAt: string }> {
      await live(userId);
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(clock.now() + RESET_LINK_TTL_MS).toISOString();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('password_resets').where('user_id', '=', userId).where('used_at', 'is', null).execute();
        await trx
          .insertInto('password_resets')
          .values({
            token_hash: sha256(token),
            user_id: userId,
            created_by: by,
            created_at: now(),
            expires_at: expiresAt,
            used_at: null,
          })
          .execute();
      });
      return { token, expiresAt };
    },

    /** Whose link it is, while it can still be used. */
    async resetInfo(token: string) {
      const r = await db
        .selectFrom('password_resets as r')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .select(['u.username', 'u.display_name', 'r.expires_at'])
        .where('r.token_hash', '=', sha256(token))
        .where('r.used_at', 'is', null)
        .where('r.expires_at', '>', now())
        .where('u.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!r) throw notFound(RESET_LINK_INVALID);
      return { username: r.username, displayName: r.display_name, expiresAt: r.expires_at };
    },

    /** Sets the new password once; every sign-in of the account ends (whoever had the old password is out). */
    async resetPassword(token: string, password: string): Promise<void> {
      const hash = await hashPassword(password);
      const userId = await db.transaction().execute(async (trx) => {
        const r = await trx
          .selectFrom('password_resets')
          .select('user_id')
          .where('token_hash', '=', sha256(token))
          .where('used_at', 'is', null)
          .where('expires_at', '>', now())
          .executeTakeFirst();
        if (!r) return null;
        const used = await trx
          .updateTable('password_resets')
          .set({ used_at: now() })
          .where('token_hash', '=', sha256(token))
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) return null;
        await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', r.user_id).execute();
        return r.user_id;
      });
      if (!userId) throw new HttpError(404, RESET_LINK_INVALID);
      const u = await row(userId);
      // The person proved who they are to an administrator: their name's pair counters go (addresses stay counted).
      await db.deleteFrom('sign_in_throttle').where('username_lower', '=', u.username.toLowerCase()).execute();
      await endSessions(userId, 'logout');
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
