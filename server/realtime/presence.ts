// Presence from socket counts: a user's first socket makes them visible with their chosen status
// (ONLINE, AWAY or DND), the last one leaving makes them OFFLINE with lastSeenAt. Several tabs count as
// one user. Work for one user runs in order, so a quick reconnect never ends as OFFLINE.
import type { AppContext } from '../context';
import { relatedUserIds } from '../users/status.routes';

export interface Presence {
  /** Counts a socket in; the first one announces the user. */
  connected(userId: string): void;
  disconnected(userId: string): void;
  isOnline(userId: string): boolean;
  /** Resolves when every pending presence write has finished (used on shutdown). */
  settle(): Promise<void>;
}

export function createPresence(getCtx: () => AppContext): Presence {
  const sockets = new Map<string, number>();
  const queues = new Map<string, Promise<void>>();
  const pending = new Set<Promise<void>>();

  function serially(userId: string, task: () => Promise<void>): void {
    const run = (queues.get(userId) ?? Promise.resolve()).then(task).catch((err) => {
      getCtx().config.logLevel !== 'silent' && console.error('presence update failed', err);
    });
    queues.set(userId, run);
    pending.add(run);
    void run.finally(() => {
      pending.delete(run);
      if (queues.get(userId) === run) queues.delete(userId);
    });
  }

  async function announce(userId: string, online: boolean): Promise<void> {
    const ctx = getCtx();
    const now = new Date().toISOString();
    if (!online) await ctx.db.updateTable('users').set({ last_seen_at: now }).where('id', '=', userId).execute();
    const user = await ctx.db.selectFrom('users').select(['status', 'last_seen_at']).where('id', '=', userId).executeTakeFirst();
    // OFFLINE as the chosen status means invisible: the others never see them come or go.
    if (!user || user.status === 'OFFLINE') return;
    const peers = await relatedUserIds(ctx, userId);
    ctx.realtime.toUsers([userId, ...peers], 'presence:update', {
      userId,
      status: online ? (user.status as 'ONLINE' | 'AWAY' | 'DND') : 'OFFLINE',
      lastSeenAt: user.last_seen_at,
    });
  }

  return {
    connected(userId) {
      const n = (sockets.get(userId) ?? 0) + 1;
      sockets.set(userId, n);
      if (n === 1) serially(userId, async () => (sockets.has(userId) ? announce(userId, true) : undefined));
    },
    disconnected(userId) {
      const n = (sockets.get(userId) ?? 1) - 1;
      if (n > 0) {
        sockets.set(userId, n);
        return;
      }
      sockets.delete(userId);
      serially(userId, async () => (sockets.has(userId) ? undefined : announce(userId, false)));
    },
    isOnline: (userId) => sockets.has(userId),
    settle: async () => {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
