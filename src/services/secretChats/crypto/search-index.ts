// The local search index of secret chats (docs/secret-chats.md, "Search"): the server cannot search what it cannot
// read, so each device indexes the messages it decrypted or sent. Words are read exactly as the server's index reads
// them (src/contract/morphology.ts: folding, ё as е, Snowball stems), and a query is parsed and its snippet built by
// the same code, so a secret chat's results look and match like the server's.
//
// Encrypted at rest, in its own IndexedDB database (`beseda-secret-search`, search-backend.ts), per user:
// - `postings/[userId, HMAC(term)]`: the ids of the messages holding the term, sealed. A term is a stem
//   (`w\n<stem>`) or a stem's beginning of at least PREFIX_MIN letters (`p\n<prefix>`: the last word of a query
//   also matches as a prefix while it is typed, as on the server).
// - `docs/[userId, HMAC(message id)]`: the message's text, file names, conversation, sender and time, sealed.
// HMAC-SHA-256 is keyed with the store's non-extractable search key, and sealing is AES-256-GCM under the store's
// at-rest key with the record's place as additional data (secret-store.ts): the raw database holds neither a word
// nor a message id. This module runs in the crypto worker, loaded on the first index or search call (it brings the
// stemmers, which the worker's MLS work does not need).
import { messageExcerpt } from '../../../contract/excerpt';
import { PREFIX_MIN, parseQuery, type QueryPart, stemMatches, tokenize } from '../../../contract/morphology';
import { indexedDbSearchBackend, type IndexStore, type SearchBackend, clearSearchIndex } from './search-backend';

/** One secret message as the index keeps it. */
export interface IndexedDoc {
  messageId: string;
  conversationId: string;
  senderId: string;
  /** The server's time of the message (ISO): results are ordered by it. */
  createdAt: string;
  editedAt: string | null;
  text: string;
  /** Names of its attachments (they match too, as on the server). */
  files: string[];
}

export interface LocalQuery {
  q: string;
  conversationId?: string;
  /** Only messages older than this one (the last of the previous page). */
  before?: { createdAt: string; messageId: string };
  limit: number;
}

export interface LocalHit {
  doc: IndexedDoc;
  snippet: string;
  highlights: [number, number][];
}

export interface SearchIndex {
  /** Adds a message, or replaces what is kept of it (an edit). */
  put(userId: string, doc: IndexedDoc): Promise<void>;
  get(userId: string, messageId: string): Promise<IndexedDoc | null>;
  /** Takes a message out of the index (deleted); nothing when it is not there. */
  remove(userId: string, messageId: string): Promise<void>;
  /** Newest first; `more` when messages beyond `limit` match. */
  search(userId: string, query: LocalQuery): Promise<{ hits: LocalHit[]; more: boolean }>;
  clear(userId: string): Promise<void>;
}

/** What the index needs of the sealed store: its two keys. */
export interface IndexKeys {
  atRestKey(userId: string): Promise<CryptoKey>;
  searchKey(userId: string): Promise<CryptoKey>;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const hex = (b: ArrayBuffer) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');
const bytes = (b: Uint8Array) => new Uint8Array(b);

/** The terms a message is found by: each stem, and each stem's beginnings for the prefix of a query's last word. */
export function indexTermsOf(stems: readonly string[]): string[] {
  const out = new Set<string>();
  for (const stem of stems) {
    out.add(`w\n${stem}`);
    for (let n = PREFIX_MIN; n <= stem.length; n++) out.add(`p\n${stem.slice(0, n)}`);
  }
  return [...out];
}

/** The stems of a message in order: its text and file names, as the server's searchDocument joins them. */
export function docStems(doc: Pick<IndexedDoc, 'text' | 'files'>): string[] {
  return tokenize(doc.files.length > 0 ? `${doc.text}\n${doc.files.join('\n')}` : doc.text).map((t) => t.stem);
}

/** Whether the stems hold the phrase (its stems one after another). */
function holdsPhrase(stems: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= stems.length; i++) if (phrase.every((p, j) => stems[i + j] === p)) return true;
  return false;
}

function satisfies(stems: readonly string[], part: QueryPart): boolean {
  return part.kind === 'word' ? stems.some((s) => stemMatches(part, s)) : holdsPhrase(stems, part.stems);
}

/** Newest first; equal times by id, so pages never overlap. */
const newerFirst = (a: IndexedDoc, b: IndexedDoc) =>
  b.createdAt.localeCompare(a.createdAt) || b.messageId.localeCompare(a.messageId);

export function createSearchIndex(keys: IndexKeys, backend: SearchBackend = indexedDbSearchBackend()): SearchIndex {
  async function mac(userId: string, label: string): Promise<string> {
    return hex(await crypto.subtle.sign('HMAC', await keys.searchKey(userId), enc.encode(label)));
  }
  const aad = (store: IndexStore, key: string[]) => enc.encode(JSON.stringify(['search', store, ...key]));
  async function seal(userId: string, store: IndexStore, key: string[], value: unknown): Promise<void> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: aad(store, key) },
        await keys.atRestKey(userId),
        enc.encode(JSON.stringify(value)),
      ),
    );
    await backend.put(store, key, { iv, data });
  }
  async function unseal<T>(userId: string, store: IndexStore, key: string[]): Promise<T | null> {
    const sealed = await backend.get(store, key);
    if (!sealed) return null;
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes(sealed.iv), additionalData: aad(store, key) },
      await keys.atRestKey(userId),
      bytes(sealed.data),
    );
    return JSON.parse(dec.decode(plain)) as T;
  }

  const docKey = async (userId: string, messageId: string) => [userId, await mac(userId, `m\n${messageId}`)];
  const postingKey = async (userId: string, term: string) => [userId, await mac(userId, term)];
  async function posting(userId: string, term: string): Promise<string[]> {
    return (await unseal<string[]>(userId, 'postings', await postingKey(userId, term))) ?? [];
  }
  async function changePostings(userId: string, terms: string[], messageId: string, add: boolean): Promise<void> {
    for (const term of terms) {
      const key = await postingKey(userId, term);
      const ids = new Set((await unseal<string[]>(userId, 'postings', key)) ?? []);
      if (add === ids.has(messageId)) continue;
      if (add) ids.add(messageId);
      else ids.delete(messageId);
      // An empty list goes: a term no message holds leaves no trace.
      if (ids.size === 0) await backend.delete('postings', key);
      else await seal(userId, 'postings', key, [...ids]);
    }
  }

  const index: SearchIndex = {
    get: async (userId, messageId) => unseal<IndexedDoc>(userId, 'docs', await docKey(userId, messageId)),
    async put(userId, doc) {
      const old = await index.get(userId, doc.messageId);
      const before = old ? indexTermsOf(docStems(old)) : [];
      const after = indexTermsOf(docStems(doc));
      const kept = new Set(after);
      await changePostings(
        userId,
        before.filter((t) => !kept.has(t)),
        doc.messageId,
        false,
      );
      await changePostings(userId, after, doc.messageId, true);
      await seal(userId, 'docs', await docKey(userId, doc.messageId), doc);
    },
    async remove(userId, messageId) {
      const key = await docKey(userId, messageId);
      const old = await unseal<IndexedDoc>(userId, 'docs', key);
      if (!old) return;
      await changePostings(userId, indexTermsOf(docStems(old)), messageId, false);
      await backend.delete('docs', key);
    },
    async search(userId, query) {
      const parts = parseQuery(query.q);
      if (parts.length === 0) return { hits: [], more: false };
      // Candidates: the messages holding every part's terms (a phrase: each of its stems; its order is checked below).
      let candidates: Set<string> | null = null;
      for (const part of parts) {
        const terms =
          part.kind === 'word' ? [`${part.prefix ? 'p' : 'w'}\n${part.stem}`] : part.stems.map((s) => `w\n${s}`);
        for (const term of terms) {
          const ids: string[] = await posting(userId, term);
          candidates = new Set(candidates ? ids.filter((id) => candidates?.has(id)) : ids);
          if (candidates.size === 0) return { hits: [], more: false };
        }
      }
      const docs: IndexedDoc[] = [];
      for (const id of candidates ?? []) {
        const doc = await index.get(userId, id);
        if (!doc) continue;
        if (query.conversationId && doc.conversationId !== query.conversationId) continue;
        const b = query.before;
        if (b && newerFirst(doc, { ...doc, createdAt: b.createdAt, messageId: b.messageId }) <= 0) continue;
        const stems = docStems(doc);
        if (parts.every((p) => satisfies(stems, p))) docs.push(doc);
      }
      docs.sort(newerFirst);
      const page = docs.slice(0, query.limit);
      return {
        hits: page.map((doc) => ({ doc, ...messageExcerpt(doc.text, doc.files, parts) })),
        more: docs.length > query.limit,
      };
    },
    clear: (userId) => clearSearchIndex(userId, backend),
  };
  return index;
}
