// Presence from socket counts: a user's first socket makes them visible with their chosen status
// (ONLINE, AWAY or DND), the last one leaving makes them OFFLINE with lastSeenAt. Several tabs count as
// one user. Work for one user runs in order, so a quick reconnect never ends as OFFLINE.
// With several server processes (Redis adapter) each process counts its own sockets and tells the others
// which users it holds; a user is online while any process holds one of their sockets.
import type { Database } from '../db/database';
import { relatedUserIds } from '../users/related-users';
import type { RealtimeHub } from './hub';

export interface Presence {
  connected(userId: string): void;
  disconnected(userId: string): void;
  isOnline(userId: string): boolean;
  /** Another process gained its first (online) or lost its last socket of a user. */
  remote(serverId: string, userId: string, online: boolean): void;
  /** Another process is gone (or sent a full list): replace what is known about it. */
  replaceRemote(serverId: string, userIds: string[]): void;
  /** Users with a socket on this process (answered to a peer's sync request). */
  localUsers(): string[];
  /** Resolves when every pending presence write has finished (used on shutdown). */
  settle(): Promise<void>;
}

export interface PresenceOptions {
  db: Database;
  /** Sends presence:update (the hub's toUsers). */
  toUsers: RealtimeHub['toUsers'];
  /**
   * What these users see of others' presence changed (their conversation lists show it); null: anyone's may
   * have (another process is gone, and nobody announces its users).
   */
  changed: (userIds: readonly string[] | null) => void;
  /** Tells other processes about a local first/last socket; absent on a single process. */
  publish?: (userId: string, online: boolean) => void;
  log?: (err: unknown) => void;
}

export function createPresence(opts: PresenceOptions): Presence {
  const { db } = opts;
  const sockets = new Map<string, number>();
  const elsewhere = new Map<string, Set<string>>();
  const queues = new Map<string, Promise<void>>();
  const pending = new Set<Promise<void>>();
  const onlineElsewhere = (userId: string) => (elsewhere.get(userId)?.size ?? 0) > 0;
  const isOnline = (userId: string) => sockets.has(userId) || onlineElsewhere(userId);

  function serially(userId: string, task: () => Promise<void>): void {
    const run = (queues.get(userId) ?? Promise.resolve()).then(task).catch((err) => opts.log?.(err));
    queues.set(userId, run);
    pending.add(run);
    void run.finally(() => {
      pending.delete(run);
      if (queues.get(userId) === run) queues.delete(userId);
    });
  }

  async function announce(userId: string, online: boolean): Promise<void> {
    const now = new Date().toISOString();
    if (!online) await db.updateTable('users').set({ last_seen_at: now }).where('id', '=', userId).execute();
    const user = await db
      .selectFrom('users')
      .select(['status', 'last_seen_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) return;
    const peers = await relatedUserIds(db, userId);
    // Lists show presence and the last-seen time (which changes for an invisible user too).
    opts.changed([userId, ...peers]);
    // OFFLINE as the chosen status means invisible: the others never see them come or go.
    if (user.status === 'OFFLINE') return;
    opts.toUsers([userId, ...peers], 'presence:update', {
      userId,
      status: online ? (user.status as 'ONLINE' | 'AWAY' | 'DND') : 'OFFLINE',
      lastSeenAt: user.last_seen_at,
    });
  }

  const setElsewhere = (serverId: string, userId: string, online: boolean) => {
    const set = elsewhere.get(userId) ?? new Set<string>();
    if (online) set.add(serverId);
    else set.delete(serverId);
    if (set.size) elsewhere.set(userId, set);
    else elsewhere.delete(userId);
  };

  return {
    connected(userId) {
      const n = (sockets.get(userId) ?? 0) + 1;
      sockets.set(userId, n);
      if (n > 1) return;
      opts.publish?.(userId, true);
      if (!onlineElsewhere(userId))
        serially(userId, async () => (isOnline(userId) ? announce(userId, true) : undefined));
    },
    disconnected(userId) {
      const n = (sockets.get(userId) ?? 1) - 1;
      if (n > 0) {
        sockets.set(userId, n);
        return;
      }
      sockets.delete(userId);
      opts.publish?.(userId, false);
      if (!onlineElsewhere(userId))
        serially(userId, async () => (isOnline(userId) ? undefined : announce(userId, false)));
    },
    isOnline,
    remote: setElsewhere,
    replaceRemote(serverId, userIds) {
      for (const [userId, set] of elsewhere) if (set.has(serverId)) setElsewhere(serverId, userId, false);
      for (const userId of userIds) setElsewhere(serverId, userId, true);
      // Nobody announces the users of a process that is gone; this is rare enough to rebuild every list.
      opts.changed(null);
    },
    localUsers: () => [...sockets.keys()],
    settle: async () => {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
