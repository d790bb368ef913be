import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Message, SearchResult } from '../../contract/entities';
import { createSecretCryptoCore } from './crypto/secret-crypto-core';
import { indexedDbSearchBackend } from './crypto/search-backend';
import { createSearchIndex } from './crypto/search-index';
import { createSecretStore, indexedDbBackend } from './crypto/secret-store';
import { type SearchPage, type SearchPageRequest, searchWithSecretChats } from './secret-search';

let n = 0;
async function deviceWith(messages: { id: string; conversationId: string; at: string; text: string }[]) {
  n++;
  const store = createSecretStore(indexedDbBackend(`merge-store-${n}`));
  const crypto = createSecretCryptoCore(store, async (s) =>
    createSearchIndex(s, indexedDbSearchBackend(`merge-search-${n}`)),
  );
  for (const m of messages) {
    await store.savePlaintext('bob', {
      messageId: m.id,
      conversationId: m.conversationId,
      senderUserId: 'alice',
      senderDeviceId: 'a1',
      epoch: 1,
      envelope: { v: 1, kind: 'text', text: m.text },
    });
    await crypto.indexMessage('bob', { conversationId: m.conversationId, messageId: m.id, createdAt: m.at });
  }
  return crypto;
}

const at = (minute: number) => `2026-11-25T10:${String(minute).padStart(2, '0')}:00.000Z`;
const serverResult = (id: string, minute: number): SearchResult => ({
  conversationId: 'plain',
  message: {
    id,
    conversationId: 'plain',
    senderId: 'alice',
    type: 'TEXT',
    content: 'собака',
    createdAt: at(minute),
    deletedAt: null,
    editedAt: null,
    clientMessageId: null,
    replyTo: null,
    attachments: [],
    receipts: [],
    reactions: [],
  } satisfies Message,
  snippet: 'собака',
  highlights: [[0, 6]],
});

/** The server's index as pages of `size` over these results (newest first), recording each request. */
function serverOf(all: SearchResult[], size: number) {
  const asked: SearchPageRequest[] = [];
  const server = async (r: SearchPageRequest): Promise<SearchPage> => {
    asked.push(r);
    const from = r.before ? all.findIndex((x) => x.message.id === r.before) + 1 : 0;
    const page = all.slice(from, from + size);
    return { results: page, nextBefore: from + size < all.length ? (page[page.length - 1]?.message.id ?? null) : null };
  };
  return { server, asked };
}

describe("search with secret chats: the server's pages and the local index merged by time", () => {
  it("interleaves local matches with the server's, pages on through both, and skips chats no longer listed", async () => {
    const crypto = await deviceWith([
      { id: 's9', conversationId: 'secret', at: at(9), text: 'Я видел собаку у дома' },
      { id: 's5', conversationId: 'secret', at: at(5), text: 'собаки лают' },
      { id: 's1', conversationId: 'secret', at: at(1), text: 'старая собака' },
      { id: 'x7', conversationId: 'left', at: at(7), text: 'собака в чате, из которого вышли' },
    ]);
    const all = [serverResult('p8', 8), serverResult('p6', 6), serverResult('p4', 4), serverResult('p2', 2)];
    const { server, asked } = serverOf(all, 2);
    const secretIds = new Set(['secret']);
    const page = (before?: string) =>
      searchWithSecretChats({
        userId: 'bob',
        request: { q: 'собака', ...(before ? { before } : {}) },
        secretIds,
        server,
        crypto,
        pageSize: 3,
      });
    const seen: string[] = [];
    let next: string | undefined;
    for (let i = 0; i < 5; i++) {
      const p = await page(next);
      seen.push(...p.results.map((r) => r.message.id));
      if (!p.nextBefore) break;
      next = p.nextBefore;
    }
    expect(seen).toEqual(['s9', 'p8', 'p6', 's5', 'p4', 'p2', 's1']);
    // The server pages from its own results only: no request names a secret message, and none of the cursors
    // handed to the search names one either.
    const local = new Set(['s9', 's5', 's1', 'x7']);
    expect(asked.map((r) => r.before ?? null)).toEqual([null, 'p6']);
    expect(asked.every((r) => !local.has(r.before ?? ''))).toBe(true);
    expect(local.has(next ?? '')).toBe(false);
    expect(next).toMatch(/^secret-page-\d+$/);
    // A cursor this module did not hand out (a reload): no page, and nothing asked of the server.
    const before = asked.length;
    expect(await page('secret-page-unknown')).toEqual({ results: [], nextBefore: null });
    expect(asked).toHaveLength(before);
    const first = await page();
    expect(first.results[0]).toMatchObject({
      conversationId: 'secret',
      message: { id: 's9', type: 'ENCRYPTED', senderId: 'alice', createdAt: at(9) },
      snippet: 'Я видел собаку у дома',
      highlights: [[8, 14]],
    });
  });

  it('in a secret chat asks only the local index; in a plaintext chat only the server', async () => {
    const crypto = await deviceWith([{ id: 's9', conversationId: 'secret', at: at(9), text: 'собака' }]);
    const { server, asked } = serverOf([serverResult('p8', 8)], 20);
    const secretIds = new Set(['secret']);
    const inSecret = await searchWithSecretChats({
      userId: 'bob',
      request: { q: 'собака', conversationId: 'secret' },
      secretIds,
      server,
      crypto,
    });
    expect(inSecret.results.map((r) => r.message.id)).toEqual(['s9']);
    expect(asked).toEqual([]);
    const inPlain = await searchWithSecretChats({
      userId: 'bob',
      request: { q: 'собака', conversationId: 'plain' },
      secretIds,
      server,
      crypto,
    });
    expect(inPlain.results.map((r) => r.message.id)).toEqual(['p8']);
    expect(asked).toHaveLength(1);

    // The local index failing: the server's results still show across all chats; within the secret chat it fails.
    const broken = {
      ...crypto,
      searchLocal: () => Promise.reject(new Error('Не удалось выполнить операцию шифрования')),
    };
    const all = await searchWithSecretChats({
      userId: 'bob',
      request: { q: 'собака' },
      secretIds,
      server,
      crypto: broken,
    });
    expect(all.results.map((r) => r.message.id)).toEqual(['p8']);
    await expect(
      searchWithSecretChats({
        userId: 'bob',
        request: { q: 'собака', conversationId: 'secret' },
        secretIds,
        server,
        crypto: broken,
      }),
    ).rejects.toThrow('Не удалось выполнить операцию шифрования');
  });
});
