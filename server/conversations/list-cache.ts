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
//
// A change inside one conversation (a message, a read, an edit) names it: the list is then kept with that entry
// marked stale, and the next request rebuilds only the stale entries (list-parts.ts) — a fiftieth of the work for a
// list of fifty. A change to a person (profile, presence), or more than MAX_STALE stale entries, drops the list.
import type { ListPart } from './list-parts';

/** Beyond this many stale entries a list is built afresh: one query then costs less than so many. */
export const MAX_STALE = 8;

export interface ListCacheOptions {
  maxEntries: number;
  maxBytes: number;
  maxAgeMs: number;
  /** Tells the other server processes (absent on a single process). */
  publish?: (userIds: string[], conversationId?: string) => void;
  now?: () => number;
}

export interface ListTicket {
  readonly userId: string;
  readonly n: number;
}

/** A kept list whose entries for some conversations are out of date. */
export interface StaleList {
  parts: readonly ListPart[];
  stale: ReadonlySet<string>;
}

export interface ConversationListCache {
  /** The user's list as sent last time, if nothing in it has changed since. */
  read(userId: string): Buffer | undefined;
  /** The user's kept list when only some of its conversations changed (after a `read` miss, after `begin`). */
  stale(userId: string): StaleList | undefined;
  /** Call before reading the rows a list is built from. */
  begin(userId: string): ListTicket;
  /** Keeps the built list (and its parts, to patch later) unless a change for its user arrived after `begin`. */
  keep(ticket: ListTicket, json: Buffer, parts?: readonly ListPart[]): void;
  /**
   * After a committed change: these users' lists are rebuilt on their next request, on every process — only the
   * entry of `conversationId` when the change was inside that one conversation.
   */
  changed(userIds: Iterable<string>, conversationId?: string): void;
  /** A change another process committed and published. */
  changedElsewhere(userIds: readonly string[], conversationId?: string): void;
  /** Forgets every list (e.g. after the channel to other processes was down and notices may be lost). */
  clear(): void;
  /** For the benchmark and operators: 0 entries turns the cache off. */
  resize(maxEntries: number): void;
  /** hits: answered as kept; misses: built (wholly or by patching); patched: built by patching a kept list. */
  stats(): { entries: number; bytes: number; hits: number; misses: number; patched: number };
}

export const DEFAULT_LIST_CACHE: Omit<ListCacheOptions, 'publish' | 'now'> = {
  maxEntries: 10_000,
  maxBytes: 32 * 1024 * 1024,
  maxAgeMs: 60_000,
};

interface Entry {
  json: Buffer;
  parts: readonly ListPart[] | undefined;
  /** Conversations whose entries changed since the list was built. */
  stale: Set<string>;
  /** What the entry holds: the answer and its parts. */
  size: number;
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
  let patched = 0;

  const drop = (userId: string) => {
    const e = entries.get(userId);
    if (!e) return;
    entries.delete(userId);
    bytes -= e.size;
  };

  const forget = (userIds: Iterable<string>, conversationId?: string) => {
    for (const id of userIds) {
      building.delete(id);
      const e = entries.get(id);
      if (!e) continue;
      if (conversationId !== undefined && e.parts && (e.stale.has(conversationId) || e.stale.size < MAX_STALE))
        e.stale.add(conversationId);
      else drop(id);
    }
  };
  /** The user's entry unless it has expired (then it is dropped). */
  const live = (userId: string) => {
    const e = entries.get(userId);
    if (e && now() - e.at > options.maxAgeMs) {
      drop(userId);
      return undefined;
    }
    return e;
  };

  const evict = () => {
    for (const id of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= options.maxBytes) break;
      drop(id);
    }
  };

  return {
    read(userId) {
      const e = live(userId);
      if (!e || e.stale.size > 0) {
        misses += 1;
        return undefined;
      }
      entries.delete(userId);
      entries.set(userId, e);
      hits += 1;
      return e.json;
    },
    stale(userId) {
      const e = live(userId);
      if (!e?.parts || e.stale.size === 0) return undefined;
      patched += 1;
      return { parts: e.parts, stale: new Set(e.stale) };
    },
    begin(userId) {
      tickets += 1;
      building.set(userId, tickets);
      return { userId, n: tickets };
    },
    keep(ticket, json, parts) {
      if (building.get(ticket.userId) !== ticket.n) return;
      building.delete(ticket.userId);
      // The parts are slices of their own buffers: together about the answer's size again.
      const size = parts ? json.length * 2 : json.length;
      if (maxEntries === 0 || size > options.maxBytes) return;
      drop(ticket.userId);
      entries.set(ticket.userId, { json, parts, stale: new Set(), size, at: now() });
      bytes += size;
      evict();
    },
    changed(userIds, conversationId) {
      const ids = [...new Set(userIds)];
      if (ids.length === 0) return;
      forget(ids, conversationId);
      if (conversationId === undefined) options.publish?.(ids);
      else options.publish?.(ids, conversationId);
    },
    changedElsewhere(userIds, conversationId) {
      if (!Array.isArray(userIds)) return;
      forget(
        userIds.filter((id) => typeof id === 'string'),
        typeof conversationId === 'string' ? conversationId : undefined,
      );
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
    stats: () => ({ entries: entries.size, bytes, hits, misses, patched }),
  };
}
