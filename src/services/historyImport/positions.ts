// Where a secret chat's import stands, kept in IndexedDB so a reload continues after the last batch the server took
// (docs/behaviour.md §10.39): per user, chat and export (its importKey). The server ignores a message it already
// has, so a batch sent again after a crash adds nothing. Sign-out deletes the user's rows (clearImportPositions,
// called beside the offline store's clear: src/services/app/services.ts).
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

export interface ImportPosition {
  /** Messages of the export read and stored, in the export's order. */
  done: number;
  total: number;
}

export interface PositionStore {
  get(userId: string, conversationId: string, importKey: string): Promise<ImportPosition | null>;
  set(userId: string, conversationId: string, importKey: string, position: ImportPosition): Promise<void>;
  /** Every position kept for the user (sign-out). */
  clear(userId: string): Promise<void>;
}

interface Schema extends DBSchema {
  positions: { key: string; value: ImportPosition & { key: string } };
}

const keyOf = (userId: string, conversationId: string, importKey: string) => `${userId}|${conversationId}|${importKey}`;
/** Every key of the user's rows: those that start with `${userId}|`. */
const userRange = (userId: string) => IDBKeyRange.bound(`${userId}|`, `${userId}|\uffff`);

export const POSITIONS_DB = 'beseda-history-import';

export function indexedDbPositions(name = POSITIONS_DB): PositionStore {
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
    async clear(userId) {
      await (await open()).delete('positions', userRange(userId));
    },
  };
}

/** Sign-out: the user's kept positions go (a browser without IndexedDB keeps none). */
export async function clearImportPositions(userId: string, name = POSITIONS_DB): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  await indexedDbPositions(name).clear(userId);
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
    async clear(u) {
      for (const k of [...map.keys()]) if (k.startsWith(`${u}|`)) map.delete(k);
    },
  };
}
