// Where the local search index of secret chats lives (search-index.ts): its own IndexedDB database, two stores of
// sealed records keyed by [userId, HMAC]. Apart from the index so that clearing it (sign-out without a running
// worker) loads neither the stemmers nor the index's code.
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { Sealed } from './secret-store';

export type IndexStore = 'postings' | 'docs';
export interface SearchBackend {
  get(store: IndexStore, key: string[]): Promise<Sealed | undefined>;
  put(store: IndexStore, key: string[], value: Sealed): Promise<void>;
  delete(store: IndexStore, key: string[]): Promise<void>;
  deletePrefix(store: IndexStore, prefix: string[]): Promise<void>;
}

interface IndexSchema extends DBSchema {
  postings: { key: string[]; value: Sealed };
  docs: { key: string[]; value: Sealed };
}

export const SEARCH_DB_NAME = 'beseda-secret-search';

/** IndexedDB through idb (the browser's, or fake-indexeddb's in node tests). */
export function indexedDbSearchBackend(name = SEARCH_DB_NAME): SearchBackend {
  let db: Promise<IDBPDatabase<IndexSchema>> | null = null;
  const open = () => {
    db ??= openDB<IndexSchema>(name, 1, {
      upgrade(d) {
        d.createObjectStore('postings');
        d.createObjectStore('docs');
      },
    });
    return db;
  };
  return {
    get: async (store, key) => (await open()).get(store, key),
    async put(store, key, value) {
      await (await open()).put(store, value, key);
    },
    async delete(store, key) {
      await (await open()).delete(store, key);
    },
    async deletePrefix(store, prefix) {
      // Array keys sort after every string: [...prefix, []] is above every key extending prefix with strings.
      await (await open()).delete(store, IDBKeyRange.bound(prefix, [...prefix, []]));
    },
  };
}

/** Deletes a user's index without its keys (sign-out with no worker running). */
export async function clearSearchIndex(userId: string, backend: SearchBackend = indexedDbSearchBackend()) {
  await backend.deletePrefix('postings', [userId]);
  await backend.deletePrefix('docs', [userId]);
}
