import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { indexTerms as serverIndexTerms, parseQuery as serverParseQuery } from '../../../../server/search/morphology';
import { messageExcerpt as serverExcerpt } from '../../../../server/search/excerpt';
import { createSecretCryptoCore } from './secret-crypto-core';
import { indexedDbSearchBackend } from './search-backend';
import { createSearchIndex, docStems, type IndexedDoc } from './search-index';
import { createSecretStore, indexedDbBackend, type PlaintextRecord } from './secret-store';

let n = 0;
/** A browser's sealed store and its search index, each in databases of its own. */
function device() {
  n++;
  const store = createSecretStore(indexedDbBackend(`store-${n}`));
  const dbName = `search-${n}`;
  return { store, dbName, index: createSearchIndex(store, indexedDbSearchBackend(dbName)) };
}

const doc = (messageId: string, text: string, over: Partial<IndexedDoc> = {}): IndexedDoc => ({
  messageId,
  conversationId: 'c1',
  senderId: 'alice',
  createdAt: `2026-11-25T10:00:0${messageId.slice(-1)}.000Z`,
  editedAt: null,
  text,
  files: [],
  ...over,
});

const ids = (r: { hits: { doc: IndexedDoc }[] }) => r.hits.map((h) => h.doc.messageId);

/** Every key and value of the index's database, raw (keys joined, values' bytes). */
async function rawContents(dbName: string): Promise<{ keys: string[]; values: Uint8Array[] }> {
  const db = await openDB(dbName);
  const keys: string[] = [];
  const values: Uint8Array[] = [];
  for (const store of db.objectStoreNames) {
    const tx = db.transaction(store);
    for await (const c of tx.store.iterate()) {
      keys.push(JSON.stringify(c.key));
      const v = c.value as { iv: Uint8Array; data: Uint8Array };
      values.push(v.iv, v.data, new TextEncoder().encode(JSON.stringify(c.value)));
    }
  }
  db.close();
  return { keys, values };
}

const contains = (hay: Uint8Array, needle: Uint8Array) => {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
};

describe('the local search index of secret chats (fake-indexeddb, real WebCrypto)', () => {
  it('finds a word in any of its forms, ё as е, and a prefix while typing', async () => {
    const { index } = device();
    await index.put('bob', doc('m1', 'Я видел собаку у дома'));
    await index.put('bob', doc('m2', 'Он пошёл домой'));
    await index.put('bob', doc('m3', 'Кошки спят'));
    const q = (text: string) => index.search('bob', { q: text, limit: 20 }).then(ids);
    expect(await q('собака')).toEqual(['m1']);
    expect(await q('собаки ')).toEqual(['m1']);
    expect(await q('пошел')).toEqual(['m2']);
    expect(await q('ПОШЁЛ ')).toEqual(['m2']);
    expect(await q('соба')).toEqual(['m1']); // the last word as a prefix
    expect(await q('соба ')).toEqual([]); // a finished word is a word
    expect(await q('видел собаку')).toEqual(['m1']);
    expect(await q('собака кошка')).toEqual([]);
    expect(await q('"у дома"')).toEqual(['m1']);
    expect(await q('"дома у"')).toEqual([]);
    expect(await q('!!!')).toEqual([]);
    const hit = (await index.search('bob', { q: 'собака', limit: 20 })).hits[0];
    // The snippet and highlights are the server's for the same text and query.
    expect(hit).toMatchObject(serverExcerpt('Я видел собаку у дома', [], serverParseQuery('собака')));
    expect(hit?.snippet).toBe('Я видел собаку у дома');
    expect(hit?.highlights).toEqual([[8, 14]]);
  });

  it('orders newest first, narrows to a conversation, pages with before, and finds file names', async () => {
    const { index } = device();
    await index.put('bob', doc('m1', 'отчёт готов'));
    await index.put('bob', doc('m3', 'отчёт в пятницу', { conversationId: 'c2' }));
    await index.put('bob', doc('m2', 'вот файл', { files: ['Отчёт за ноябрь.pdf'] }));
    expect(ids(await index.search('bob', { q: 'отчет', limit: 20 }))).toEqual(['m3', 'm2', 'm1']);
    expect(ids(await index.search('bob', { q: 'отчет', conversationId: 'c1', limit: 20 }))).toEqual(['m2', 'm1']);
    const first = await index.search('bob', { q: 'отчет', limit: 2 });
    expect(ids(first)).toEqual(['m3', 'm2']);
    expect(first.more).toBe(true);
    const next = await index.search('bob', {
      q: 'отчет',
      limit: 2,
      before: { createdAt: first.hits[1]!.doc.createdAt, messageId: 'm2' },
    });
    expect(ids(next)).toEqual(['m1']);
    expect(next.more).toBe(false);
    expect(first.hits[1]?.snippet).toBe('Отчёт за ноябрь.pdf');
    // Another user of the same browser has an index of their own.
    expect(ids(await index.search('alice', { q: 'отчет', limit: 20 }))).toEqual([]);
  });

  it('a deleted message leaves the index, and an edit replaces its words', async () => {
    const { index, dbName } = device();
    await index.put('bob', doc('m1', 'Я видел собаку у дома'));
    const full = (await rawContents(dbName)).keys.length;
    await index.put('bob', doc('m2', 'синий трактор'));
    await index.remove('bob', 'm2');
    expect((await rawContents(dbName)).keys.length).toBe(full);
    expect(ids(await index.search('bob', { q: 'трактор', limit: 20 }))).toEqual([]);
    await index.remove('bob', 'm1');
    expect(ids(await index.search('bob', { q: 'собака', limit: 20 }))).toEqual([]);
    // Nothing of it stays: no posting list, no record.
    expect((await rawContents(dbName)).keys).toEqual([]);
    await index.remove('bob', 'm1'); // again: nothing to do

    await index.put('bob', doc('m3', 'встреча в среду'));
    await index.put('bob', doc('m3', 'встреча в четверг', { editedAt: '2026-11-25T11:00:00.000Z' }));
    expect(ids(await index.search('bob', { q: 'среда', limit: 20 }))).toEqual([]);
    expect(ids(await index.search('bob', { q: 'четверг', limit: 20 }))).toEqual(['m3']);
  });

  it('keeps no word and no message id in the clear: every key is an HMAC, every value AES-GCM', async () => {
    const { index, dbName } = device();
    const text = 'Я видел собаку у дома, секретный пароль жираф42';
    await index.put('bob', doc('message-one', text, { conversationId: 'chat-secret', files: ['план-побега.txt'] }));
    const { keys, values } = await rawContents(dbName);
    expect(keys.length).toBeGreaterThan(10);
    for (const k of keys) expect(JSON.parse(k)).toEqual(['bob', expect.stringMatching(/^[0-9a-f]{64}$/)]);
    const words = [
      ...text.toLowerCase().split(/[^\p{L}\p{N}]+/u),
      'план',
      'побега',
      'message-one',
      'chat-secret',
      'alice',
    ];
    const needles = [...words, ...docStems({ text, files: [] }), 'собак', 'жираф']
      .filter((w) => w.length >= 2)
      .map((w) => new TextEncoder().encode(w));
    for (const v of values) for (const w of needles) expect(contains(v, w)).toBe(false);
    for (const k of keys) for (const w of words.filter((x) => x.length >= 2)) expect(k.includes(w)).toBe(false);
  });

  it("reads words exactly as the server's search does (the same tokenizer and stemmer)", async () => {
    const sentences = [
      'Я видел собаку у дома',
      'Он пошёл домой, а она пошла в магазин.',
      'Ёлки-палки, ЁЖ съел 15 яблок!',
      'Встречаемся завтра в 10:30 у метро «Парк культуры»',
      'Мы обсуждали производительность и масштабируемость системы',
      'Café résumé и naïve по-русски',
      'Красивейшие бегущие лошади перепрыгивали через ограждения',
    ];
    for (const s of sentences) expect(docStems({ text: s, files: [] })).toEqual(serverIndexTerms(s).split(' '));
    // And what they are: Snowball's Russian stems, ё folded to е.
    expect(docStems({ text: 'Я видел собаку у дома', files: [] })).toEqual(['я', 'видел', 'собак', 'у', 'дом']);
    expect(docStems({ text: 'пошёл пошел Ёж', files: [] })).toEqual(['пошел', 'пошел', 'еж']);
    const { index } = device();
    for (const [i, s] of sentences.entries()) await index.put('bob', doc(`m${i}`, s));
    // A word of each sentence finds it locally as the server's index would.
    expect(ids(await index.search('bob', { q: 'лошадь', limit: 20 }))).toEqual(['m6']);
    expect(ids(await index.search('bob', { q: 'ежи', limit: 20 }))).toEqual(['m2']);
  });
});

describe('the search key', () => {
  it('is a non-extractable HMAC key of the sealed store, the same across loads, gone with clear()', async () => {
    n++;
    const backend = indexedDbBackend(`keys-${n}`);
    const key = await createSecretStore(backend).searchKey('bob');
    expect(key.algorithm.name).toBe('HMAC');
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    const mac = async (k: CryptoKey) =>
      new Uint8Array(await crypto.subtle.sign('HMAC', k, new TextEncoder().encode('w\nсобак')));
    // Another load of the store (a reload) reads the same key.
    const again = createSecretStore(backend);
    expect(await mac(await again.searchKey('bob'))).toEqual(await mac(key));
    await again.clear('bob');
    expect(await backend.get('keys', ['bob', 'search'])).toBeUndefined();
    expect(await mac(await createSecretStore(backend).searchKey('bob'))).not.toEqual(await mac(key));
  });
});

describe('the crypto service keeps the index (core in-process, real store)', () => {
  it('indexes kept plaintexts, takes the edits of their sender, drops deleted ones, and clears with the store', async () => {
    n++;
    const store = createSecretStore(indexedDbBackend(`core-store-${n}`));
    const core = createSecretCryptoCore(store, async (s) =>
      createSearchIndex(s, indexedDbSearchBackend(`core-search-${n}`)),
    );
    const kept = (messageId: string, envelope: PlaintextRecord['envelope'], sender = 'alice'): PlaintextRecord => ({
      messageId,
      conversationId: 'c1',
      senderUserId: sender,
      senderDeviceId: 'd',
      epoch: 1,
      envelope,
    });
    const at = '2026-11-25T10:00:00.000Z';
    await store.savePlaintext('bob', kept('m1', { v: 1, kind: 'text', text: 'Я видел собаку у дома' }));
    await core.indexMessage('bob', { conversationId: 'c1', messageId: 'm1', createdAt: at });
    await core.indexMessage('bob', { conversationId: 'c1', messageId: 'nothing-kept', createdAt: at });
    const found = await core.searchLocal('bob', { q: 'собака', limit: 20 });
    expect(found.hits.map((h) => [h.doc.messageId, h.doc.senderId, h.doc.createdAt])).toEqual([['m1', 'alice', at]]);

    // Someone else's edit of it changes nothing; the sender's does.
    await core.keepSent('bob', kept('e1', { v: 1, kind: 'edit', targetId: 'm1', text: 'кошка' }, 'mallory'));
    await core.indexMessage('bob', { conversationId: 'c1', messageId: 'e1', createdAt: at });
    expect((await core.searchLocal('bob', { q: 'собака', limit: 20 })).hits).toHaveLength(1);
    await core.keepSent('bob', kept('e2', { v: 1, kind: 'edit', targetId: 'm1', text: 'Я видел кошку' }));
    await core.indexMessage('bob', { conversationId: 'c1', messageId: 'e2', createdAt: '2026-11-25T10:05:00.000Z' });
    expect((await core.searchLocal('bob', { q: 'собака', limit: 20 })).hits).toHaveLength(0);
    const edited = (await core.searchLocal('bob', { q: 'кошка', limit: 20 })).hits[0]?.doc;
    expect(edited?.createdAt).toBe(at);
    expect(edited?.editedAt).not.toBeNull();
    // A message deleted for everyone (the device actor's forget) leaves with its plaintext.
    await core.forget('bob', 'c1', 'm1');
    expect((await core.searchLocal('bob', { q: 'кошка', limit: 20 })).hits).toHaveLength(0);

    // Deleted for everyone on the server; then sign-out.
    await store.savePlaintext('bob', kept('m2', { v: 1, kind: 'text', text: 'синий трактор' }));
    await core.indexMessage('bob', { conversationId: 'c1', messageId: 'm2', createdAt: at });
    await core.unindexMessage('bob', 'm2');
    expect((await core.searchLocal('bob', { q: 'трактор', limit: 20 })).hits).toHaveLength(0);
    await store.savePlaintext('bob', kept('m3', { v: 1, kind: 'text', text: 'зелёный трактор' }));
    await core.indexMessage('bob', { conversationId: 'c1', messageId: 'm3', createdAt: at });
    await core.clear('bob');
    expect((await rawContents(`core-search-${n}`)).keys).toEqual([]);
  });
});
