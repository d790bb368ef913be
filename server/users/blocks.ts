// Who blocked whom, kept whole in memory by every server process (people block few): the send path, calls, EBLID
// search and friend requests ask it without a query. A change is written first, then applied here and told to the
// other processes (blocks.plugin.ts); a process that may have missed notices reads the table again.
import type { Database } from '../db/database';

export const BLOCKED_BY_ME = 'Вы заблокировали этого пользователя';
export const BLOCKED_BY_THEM = 'Пользователь ограничил круг тех, кто может ему писать';
export const CALL_BLOCKED = 'Позвонить этому пользователю нельзя';

export interface Blocks {
  /** Reads every block (at start, and after the peer channel came back). */
  load(): Promise<void>;
  /** Whether `blocker` blocked `blocked`. */
  has(blocker: string, blocked: string): boolean;
  /** Whether either of the two blocked the other. */
  between(a: string, b: string): boolean;
  /** The people `userId` blocked. */
  blockedBy(userId: string): ReadonlySet<string>;
  /** Writes the block (or its end) and applies it here; false when nothing changed. */
  set(blocker: string, blocked: string, on: boolean): Promise<boolean>;
  /** A change another process made. */
  changedElsewhere(blocker: string, blocked: string, on: boolean): void;
  /** Told after a change here (the peer channel's publish); null on a single process. */
  publish: ((blocker: string, blocked: string, on: boolean) => void) | null;
}

const NONE: ReadonlySet<string> = new Set();

export function createBlocks(db: Database): Blocks {
  let byBlocker = new Map<string, Set<string>>();

  function apply(map: Map<string, Set<string>>, blocker: string, blocked: string, on: boolean) {
    const set = map.get(blocker);
    if (on) {
      if (set) set.add(blocked);
      else map.set(blocker, new Set([blocked]));
    } else if (set) {
      set.delete(blocked);
      if (set.size === 0) map.delete(blocker);
    }
  }

  const blocks: Blocks = {
    publish: null,
    async load() {
      const rows = await db.selectFrom('blocks').select(['blocker_id', 'blocked_id']).execute();
      const next = new Map<string, Set<string>>();
      for (const r of rows) apply(next, r.blocker_id, r.blocked_id, true);
      byBlocker = next;
    },
    has: (blocker, blocked) => byBlocker.get(blocker)?.has(blocked) ?? false,
    between: (a, b) => blocks.has(a, b) || blocks.has(b, a),
    blockedBy: (userId) => byBlocker.get(userId) ?? NONE,
    async set(blocker, blocked, on) {
      let changed: boolean;
      if (on) {
        const res = await db
          .insertInto('blocks')
          .values({ blocker_id: blocker, blocked_id: blocked, created_at: new Date().toISOString() })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        changed = Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
      } else {
        const res = await db
          .deleteFrom('blocks')
          .where('blocker_id', '=', blocker)
          .where('blocked_id', '=', blocked)
          .executeTakeFirst();
        changed = Number(res.numDeletedRows) > 0;
      }
      apply(byBlocker, blocker, blocked, on);
      if (changed) blocks.publish?.(blocker, blocked, on);
      return changed;
    },
    changedElsewhere: (blocker, blocked, on) => apply(byBlocker, blocker, blocked, on),
  };
  return blocks;
}
