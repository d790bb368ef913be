// Where a secret chat's import stands, kept in IndexedDB so a reload continues after the last batch the server took
// (docs/behaviour.md §10.39): per user, chat and export (its importKey). The server ignores a message it already
// has, so a batch sent again after a crash adds nothing.
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

export interface ImportPosition {
  /** Messages of the export read and stored, in the export's order. */
  done: number;
  total: number;
}

export interface PositionStore {
  get(userId: string, conversationId: string, importKey: string): Promise<ImportPosition | null>;
  set(userId: string, conversationId: string, importKey: string, position: ImportPosition): Promise<void>;
}

interface Schema extends DBSchema {
  positions: { key: string; value: ImportPosition & { key: string } };
}

const keyOf = (userId: string, conversationId: string, importKey: string) => `${userId}|${conversationId}|${importKey}`;

export function indexedDbPositions(name = 'beseda-history-import'): PositionStore {
  let db: Promise<IDBPDatabase<Schema>> | null = null;
  const open = () =>
    (db ??= openDB<Schema>(name, 1, {
      upgrade(d) {
        d.createObjectStore('positions', { keyPath: 'key' });
      },
    }));
  return {
    async get(userId, conversationId, importKey) {
      const row = await (await open()).get('positions', keyOf(userId, conversationId, importKey));
      return row ? { done: row.done, total: row.total } : null;
    },
    async set(userId, conversationId, importKey, position) {
      await (await open()).put('positions', { key: keyOf(userId, conversationId, importKey), ...position });
    },
  };
}

/** The same in memory (tests, and a browser without IndexedDB). */
export function memoryPositions(): PositionStore {
  const map = new Map<string, ImportPosition>();
  return {
    async get(u, c, k) {
      return map.get(keyOf(u, c, k)) ?? null;
    },
    async set(u, c, k, p) {
      map.set(keyOf(u, c, k), { ...p });
    },
  };
}
