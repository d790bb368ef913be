// What the browser keeps for reading without a network (docs/notifications.md, "Offline reading"): per user, the conversation
// list and the latest 100 messages of the 20 most recently opened conversations, in IndexedDB (idb). Written after
// each successful fetch, read when a fetch gets no answer, deleted on sign-out.
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { ConversationEntry, Message } from '../../contract/entities';
import { OFFLINE } from '../../contract/limits';

interface OfflineSchema extends DBSchema {
  lists: {
    key: string;
    value: { userId: string; entries: ConversationEntry[]; savedAt: string; deletionsCheckedAt?: string };
  };
  messages: {
    key: [string, string];
    value: { userId: string; conversationId: string; messages: Message[]; openedAt: number };
    indexes: { byUser: string };
  };
}

const DB_NAME = 'beseda-offline';

const byTime = (x: Message, y: Message) => (x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : 0);

/**
 * What is kept after the server answered the conversation's latest page: the page, and the kept messages older
 * than it. A kept message inside the page's span that the page lacks was deleted meanwhile (perhaps while no page
 * was open to hear it), so it goes; an empty page means nothing is left.
 */
export function mergeLatest(kept: readonly Message[], page: readonly Message[], max: number): Message[] {
  const oldest = [...page].sort(byTime)[0]?.createdAt;
  const older = oldest === undefined ? [] : kept.filter((m) => m.createdAt < oldest);
  const byId = new Map<string, Message>();
  for (const m of [...older, ...page]) byId.set(m.id, m);
  return [...byId.values()].sort(byTime).slice(-max);
}

export interface OfflineCache {
  saveList(userId: string, entries: ConversationEntry[]): Promise<void>;
  loadList(userId: string): Promise<ConversationEntry[] | null>;
  /** Merges the conversation's latest page into what is kept (mergeLatest), and marks it recently opened. */
  saveMessages(userId: string, conversationId: string, messages: Message[]): Promise<void>;
  loadMessages(userId: string, conversationId: string): Promise<Message[] | null>;
  /** A message deleted for everyone leaves what is kept, so an offline reload does not show it again. */
  forgetMessage(userId: string, conversationId: string, messageId: string): Promise<void>;
  /** The server's time up to which deletions were caught up on (GET /api/messages/deleted), or null. */
  deletionsCheckedAt(userId: string): Promise<string | null>;
  setDeletionsCheckedAt(userId: string, until: string): Promise<void>;
  clear(userId: string): Promise<void>;
}

export function createOfflineCache(): OfflineCache {
  let db: Promise<IDBPDatabase<OfflineSchema>> | null = null;
  const open = () => {
    db ??= openDB<OfflineSchema>(DB_NAME, 1, {
      upgrade(d) {
        d.createObjectStore('lists', { keyPath: 'userId' });
        d.createObjectStore('messages', { keyPath: ['userId', 'conversationId'] }).createIndex('byUser', 'userId');
      },
    });
    return db;
  };
  return {
    async saveList(userId, entries) {
      const tx = (await open()).transaction('lists', 'readwrite');
      const kept = await tx.store.get(userId);
      await tx.store.put({ ...kept, userId, entries, savedAt: new Date().toISOString() });
      await tx.done;
    },
    async deletionsCheckedAt(userId) {
      return (await (await open()).get('lists', userId))?.deletionsCheckedAt ?? null;
    },
    async setDeletionsCheckedAt(userId, until) {
      const tx = (await open()).transaction('lists', 'readwrite');
      const kept = await tx.store.get(userId);
      await tx.store.put({ entries: [], savedAt: until, ...kept, userId, deletionsCheckedAt: until });
      await tx.done;
    },
    async loadList(userId) {
      return (await (await open()).get('lists', userId))?.entries ?? null;
    },
    async saveMessages(userId, conversationId, page) {
      const d = await open();
      const tx = d.transaction('messages', 'readwrite');
      const kept = (await tx.store.get([userId, conversationId]))?.messages ?? [];
      const messages = mergeLatest(kept, page, OFFLINE.messagesPerConversation);
      await tx.store.put({ userId, conversationId, messages, openedAt: Date.now() });
      // Only the most recently opened conversations stay.
      const all = await tx.store.index('byUser').getAll(userId);
      const stale = all.sort((x, y) => y.openedAt - x.openedAt).slice(OFFLINE.conversations);
      for (const s of stale) await tx.store.delete([userId, s.conversationId]);
      await tx.done;
    },
    async loadMessages(userId, conversationId) {
      return (await (await open()).get('messages', [userId, conversationId]))?.messages ?? null;
    },
    async forgetMessage(userId, conversationId, messageId) {
      const tx = (await open()).transaction('messages', 'readwrite');
      const kept = await tx.store.get([userId, conversationId]);
      if (kept?.messages.some((m) => m.id === messageId)) {
        await tx.store.put({ ...kept, messages: kept.messages.filter((m) => m.id !== messageId) });
      }
      await tx.done;
    },
    async clear(userId) {
      const d = await open();
      const tx = d.transaction(['lists', 'messages'], 'readwrite');
      await tx.objectStore('lists').delete(userId);
      const keys = await tx.objectStore('messages').index('byUser').getAllKeys(userId);
      for (const k of keys) await tx.objectStore('messages').delete(k);
      await tx.done;
    },
  };
}
