// Each user's conversation list (GET /api/conversations) kept as the UTF-8 JSON it was sent as, until something in
// it changes. Clients ask for it every 20 s whether or not anything happened (docs/behaviour.md: the list refetches on a
// timer), and building 50 entries costs about thirty times a bare route, most of it in serialization.
//
// Correctness rests on two rules:
// - Whoever commits a change that shows in someone's list calls `changed(userIds)` after the commit: a new or
//   deleted message and new receipts (the conversation's members), a new conversation (its members), a profile
//   or presence change (the user and everyone related to them). Other server processes hear of it over the
//   Redis channel the socket adapter already uses, so a list cached there is dropped as well.
// - A list built while a change for its user arrived is not kept: `begin` hands out a ticket before the reads
//   and `changed` voids the tickets of its users, so a build that may have read the old rows never lands.
// Entries also expire after `maxAgeMs`, which bounds the damage of a change notice lost on the way (Redis
// pub/sub delivers at most once), and the least recently used go first beyond `maxEntries` or `maxBytes`.

export interface ListCacheOptions {
  maxEntries: number;
  maxBytes: number;
  maxAgeMs: number;
  /** Tells the other server processes (absent on a single process). */
  publish?: (userIds: string[]) => void;
  now?: () => number;
}

export interface ListTicket {
  readonly userId: string;
  readonly n: number;
}

export interface ConversationListCache {
  /** The user's list as sent last time, if nothing in it has changed since. */
  read(userId: string): Buffer | undefined;
  /** Call before reading the rows a list is built from. */
  begin(userId: string): ListTicket;
  /** Keeps the built list unless a change for its user arrived after `begin`. */
  keep(ticket: ListTicket, json: Buffer): void;
  /** After a committed change: these users' lists are rebuilt on their next request, on every process. */
  changed(userIds: Iterable<string>): void;
  /** A change another process committed and published. */
  changedElsewhere(userIds: readonly string[]): void;
  /** Forgets every list (e.g. after the channel to other processes was down and notices may be lost). */
  clear(): void;
  /** For the benchmark and operators: 0 entries turns the cache off. */
  resize(maxEntries: number): void;
  stats(): { entries: number; bytes: number; hits: number; misses: number };
}

export const DEFAULT_LIST_CACHE: Omit<ListCacheOptions, 'publish' | 'now'> = {
  maxEntries: 10_000,
  maxBytes: 32 * 1024 * 1024,
  maxAgeMs: 60_000,
};

interface Entry {
  json: Buffer;
  at: number;
}

export function createListCache(options: ListCacheOptions): ConversationListCache {
  const now = options.now ?? Date.now;
  let maxEntries = options.maxEntries;
  // Map order is insertion order: re-inserting on a hit keeps the least recently used first.
  const entries = new Map<string, Entry>();
  const building = new Map<string, number>();
  let bytes = 0;
  let tickets = 0;
  let hits = 0;
  let misses = 0;

  const drop = (userId: string) => {
    const e = entries.get(userId);
    if (!e) return;
    entries.delete(userId);
    bytes -= e.json.length;
  };

  const forget = (userIds: Iterable<string>) => {
    for (const id of userIds) {
      drop(id);
      building.delete(id);
    }
  };

  const evict = () => {
    for (const id of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= options.maxBytes) break;
      drop(id);
    }
  };

  return {
    read(userId) {
      const e = entries.get(userId);
      if (!e || now() - e.at > options.maxAgeMs) {
        if (e) drop(userId);
        misses += 1;
        return undefined;
      }
      entries.delete(userId);
      entries.set(userId, e);
      hits += 1;
      return e.json;
    },
    begin(userId) {
      tickets += 1;
      building.set(userId, tickets);
      return { userId, n: tickets };
    },
    keep(ticket, json) {
      if (building.get(ticket.userId) !== ticket.n) return;
      building.delete(ticket.userId);
      if (maxEntries === 0 || json.length > options.maxBytes) return;
      drop(ticket.userId);
      entries.set(ticket.userId, { json, at: now() });
      bytes += json.length;
      evict();
    },
    changed(userIds) {
      const ids = [...new Set(userIds)];
      if (ids.length === 0) return;
      forget(ids);
      options.publish?.(ids);
    },
    changedElsewhere(userIds) {
      if (Array.isArray(userIds)) forget(userIds.filter((id) => typeof id === 'string'));
    },
    clear() {
      entries.clear();
      building.clear();
      bytes = 0;
    },
    resize(n) {
      maxEntries = Math.max(0, Math.floor(n));
      evict();
    },
    stats: () => ({ entries: entries.size, bytes, hits, misses }),
  };
}
