// «Каталог участников» and «Открытые группы» (docs/behaviour.md §10.25). With the directory off nobody is listed or
// found by name here; with it on, every active account the caller may see is, and a group may be made with any of
// them, friends or not. SQLite's LIKE folds ASCII only, so names are folded and matched here (a family or company
// server has a few thousand accounts), as «Администрирование» does.
import { sql } from 'kysely';
import { DIRECTORY_PAGE, type OpenGroup } from '../../src/contract/directory';
import type { PublicUser } from '../../src/contract/entities';
import { readSettings } from '../admin/server-settings';
import type { Database } from '../db/database';
import { type PresenceLookup, PUBLIC_USER_COLUMNS, toPublicUser } from '../users/user-view';

const fold = (s: string) => s.toLowerCase().replaceAll('ё', 'е');
const EBLID = /^\d{4}$/;

export async function directoryOn(db: Database): Promise<boolean> {
  return (await readSettings(db)).directory;
}

/** Whoever `viewerId` may find: active accounts that did not block them. `db` may be a transaction. */
function listable(db: Database, viewerId: string) {
  return db
    .selectFrom('users as u')
    .where('u.deleted_at', 'is', null)
    .where('u.deactivated_at', 'is', null)
    .where('u.id', '!=', viewerId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('blocks as b')
            .select('b.blocker_id')
            .whereRef('b.blocker_id', '=', 'u.id')
            .where('b.blocked_id', '=', viewerId),
        ),
      ),
    );
}

/**
 * Whether every one of `ids` is someone `viewerId` finds in the directory (so may put in a group with): false when
 * the directory is off. `db` may be the transaction the caller is in.
 */
export async function allInDirectory(db: Database, viewerId: string, ids: readonly string[]): Promise<boolean> {
  if (!ids.length) return true;
  if (!(await directoryOn(db))) return false;
  const found = await listable(db, viewerId).select('u.id').where('u.id', 'in', ids).execute();
  return found.length === new Set(ids).size;
}

const page = <T>(all: T[], cursor: string | undefined) => {
  const from = cursor ? Number(cursor) : 0;
  const items = all.slice(from, from + DIRECTORY_PAGE);
  return { items, nextCursor: from + DIRECTORY_PAGE < all.length ? String(from + DIRECTORY_PAGE) : null };
};

/** «Люди»: by name, @username or EBLID, sorted by name. */
export async function directoryUsers(
  db: Database,
  isOnline: PresenceLookup,
  viewerId: string,
  q: string | undefined,
  cursor: string | undefined,
): Promise<{ users: PublicUser[]; nextCursor: string | null }> {
  const rows = await listable(db, viewerId)
    .select(PUBLIC_USER_COLUMNS.map((c) => `u.${c}` as const))
    .execute();
  const needle = fold((q ?? '').trim());
  const name = needle.replace(/^@/, '');
  const hits = needle
    ? rows.filter((u) =>
        EBLID.test(needle)
          ? u.eblid === needle
          : fold(u.display_name).includes(needle) || fold(u.username).includes(name),
      )
    : rows;
  hits.sort((a, b) => fold(a.display_name).localeCompare(fold(b.display_name), 'ru') || (a.id < b.id ? -1 : 1));
  const { items, nextCursor } = page(hits, cursor);
  return { users: items.map((r) => toPublicUser(r, isOnline)), nextCursor };
}

/** «Открытые группы»: by title, the largest first. Secret chats are never open. */
export async function directoryGroups(
  db: Database,
  viewerId: string,
  q: string | undefined,
  cursor: string | undefined,
): Promise<{ groups: OpenGroup[]; nextCursor: string | null }> {
  const rows = await db
    .selectFrom('conversations as c')
    .select(['c.id', 'c.title', 'c.avatar_url'])
    .select((eb) => [
      eb
        .selectFrom('conversation_members as m')
        .select(sql<number | string>`count(*)`.as('n'))
        .whereRef('m.conversation_id', '=', 'c.id')
        .as('members'),
      eb
        .selectFrom('conversation_members as me')
        .select('me.user_id')
        .whereRef('me.conversation_id', '=', 'c.id')
        .where('me.user_id', '=', viewerId)
        .as('me'),
    ])
    .where('c.open', '=', 1)
    .where('c.secret', '=', 0)
    .where('c.direct_key', 'is', null)
    .execute();
  const needle = fold((q ?? '').trim());
  const hits = needle ? rows.filter((g) => fold(g.title ?? '').includes(needle)) : rows;
  const groups = hits
    .map((g) => ({
      id: g.id,
      title: g.title,
      avatarUrl: g.avatar_url,
      memberCount: Number(g.members ?? 0),
      member: g.me !== null,
    }))
    .sort((a, b) => b.memberCount - a.memberCount || fold(a.title ?? '').localeCompare(fold(b.title ?? ''), 'ru'));
  const { items, nextCursor } = page(groups, cursor);
  return { groups: items, nextCursor };
}
