// One's own status (docs/behaviour.md §10.44): an emoji and a short text with «Сбросить через», apart from presence.
// Set and cleared by its owner (PUT/DELETE /api/status/custom); cleared at its time by the scheduler's sweep
// (server/scheduled/scheduler.ts runs `customStatusSweep` on each pass, so there is one timer loop per process).
// Every change is told as profile:update to the owner and everyone who sees their profile (relatedUserIds), like
// a new name or avatar; the hub's adapter carries it to every process.
import fp from 'fastify-plugin';
import { clearsAt } from '../../src/contract/custom-status';
import type { ConversationListCache } from '../conversations/list-cache';
import type { Database } from '../db/database';
import { contractRoute } from '../http/contract-route';
import { notFound } from '../http/errors';
import type { RealtimeHub } from '../realtime/hub';
import { relatedUserIds } from './related-users';
import { customStatusOf, toOwnUser, type UserRow } from './user-view';

interface Parts {
  db: Database;
  realtime: Pick<RealtimeHub, 'toUsers'>;
  lists: Pick<ConversationListCache, 'changed'>;
}

const CLEARED = { custom_status_emoji: '', custom_status_text: '', custom_status_expires_at: null } as const;

/** Tells the owner's tabs and everyone who sees them (lists built before now are stale too). */
async function publish({ db, realtime, lists }: Parts, row: UserRow): Promise<void> {
  const peers = await relatedUserIds(db, row.id);
  lists.changed([row.id, ...peers]);
  realtime.toUsers([row.id, ...peers], 'profile:update', {
    userId: row.id,
    avatarUrl: row.avatar_url,
    displayName: row.display_name,
    customStatus: customStatusOf(row),
  });
}

/** A scheduled job: clears the statuses whose time came, each by exactly one process (a conditional UPDATE). */
export function customStatusSweep(parts: Parts & { clock: { now(): number } }) {
  const { db, clock } = parts;
  return {
    async run(): Promise<void> {
      const now = new Date(clock.now()).toISOString();
      for (;;) {
        const due = await db
          .selectFrom('users')
          .select(['id', 'custom_status_expires_at'])
          .where('custom_status_expires_at', '<=', now)
          .orderBy('custom_status_expires_at')
          .limit(100)
          .execute();
        for (const d of due) {
          // Only the status that fell due: one set again meanwhile keeps its own time.
          const r = await db
            .updateTable('users')
            .set(CLEARED)
            .where('id', '=', d.id)
            .where('custom_status_expires_at', '=', d.custom_status_expires_at)
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) !== 1) continue;
          const row = await db.selectFrom('users').selectAll().where('id', '=', d.id).executeTakeFirst();
          if (row) await publish(parts, row);
        }
        if (due.length < 100) return;
      }
    },
    async nextAt(): Promise<number | null> {
      const row = await db
        .selectFrom('users')
        .select('custom_status_expires_at')
        .where('custom_status_expires_at', 'is not', null)
        .orderBy('custom_status_expires_at')
        .limit(1)
        .executeTakeFirst();
      return row?.custom_status_expires_at ? Date.parse(row.custom_status_expires_at) : null;
    },
  };
}

/** The routes; `wake` tells the scheduler a status now clears sooner than it knew. */
export const customStatusRoutes = fp<{ wake(): void }>(
  async (app, { wake }) => {
    const { clock, db, lists, realtime } = app;
    const parts = { db, lists, realtime };
    const load = async (id: string) => {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('Пользователь не найден');
      return row;
    };

    contractRoute(app, 'setCustomStatus', async ({ userId, body }) => {
      const at = clearsAt(body.clearAfter, clock.now(), body.timezoneOffset ?? 0);
      await db
        .updateTable('users')
        .set({
          custom_status_emoji: body.emoji,
          custom_status_text: body.text,
          custom_status_expires_at: at === null ? null : new Date(at).toISOString(),
        })
        .where('id', '=', userId)
        .execute();
      const row = await load(userId);
      if (at !== null) wake();
      await publish(parts, row);
      return { user: toOwnUser(row) };
    });

    contractRoute(app, 'clearCustomStatus', async ({ userId }) => {
      const before = await load(userId);
      if (!customStatusOf(before)) return { user: toOwnUser(before) };
      await db.updateTable('users').set(CLEARED).where('id', '=', userId).execute();
      const row = await load(userId);
      await publish(parts, row);
      return { user: toOwnUser(row) };
    });
  },
  {
    name: 'custom-status-routes',
    encapsulate: true,
    decorators: { fastify: ['clock', 'db', 'lists', 'realtime', 'authenticate'] },
  },
);
