// The conversation list's answer made lighter (docs/behaviour.md §10.29 The conversation list's answer): settings at
// their defaults are left out (the contract's ConversationEntry: absent means not muted, pinned or archived) and the
// client reads the absence as those defaults; a client that takes Brotli gets the same JSON compressed, from the list
// cache as well as freshly built, still `Cache-Control: no-store`.
import http from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsBrotli } from '../../server/http/brotli-answer';
import { ConversationsResponse } from '../../src/contract/api';
import { sortEntries } from '../../src/machines/chats/chats/conversation-list';
import { chatTile } from '../../src/ui/conversation/chat-tile';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let withBoris: string;
let withVera: string;

/** GET /api/conversations over node:http, which decodes nothing: the bytes and headers as the server sent them. */
function rawList(u: TestUser, acceptEncoding?: string) {
  const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${u.accessToken}` };
  if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${srv.url}/api/conversations`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  srv = await startTestServer({ conversationListCache: 100 });
  api = client(srv.url);
  [anna, boris, vera] = await Promise.all([api.user('anna'), api.user('boris'), api.user('vera')]);
  await befriend(api, anna, boris);
  await befriend(api, anna, vera);
  withBoris = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body.conversation
    .id;
  withVera = (await api.post('/api/conversations/with', { userId: vera.user.id }, anna.accessToken)).body.conversation
    .id;
  for (const id of [withBoris, withVera])
    await api.post(
      '/api/conversations/send',
      { conversationId: id, type: 'TEXT', content: 'привет' },
      anna.accessToken,
    );
});
afterAll(async () => {
  await srv?.close();
});

describe('settings at their defaults', () => {
  it('are left out of the list, and read back as the defaults by the contract and the client', async () => {
    const pinned = await api.patch(
      `/api/conversations/${withVera}/settings`,
      { pinned: true, mutedUntil: 'forever' },
      anna.accessToken,
    );
    expect(pinned.status).toBe(200);
    const served = await api.get('/api/conversations', anna.accessToken);
    expect(served.status).toBe(200);
    const plain = served.body.conversations.find(
      (e: { conversation: { id: string } }) => e.conversation.id === withBoris,
    );
    expect(plain).not.toHaveProperty('settings');
    const { conversations } = ConversationsResponse.parse(served.body);
    const veraEntry = conversations.find((e) => e.conversation.id === withVera);
    expect(veraEntry?.settings).toMatchObject({ pinned: true, mutedUntil: 'forever', archived: false });
    // The client: «Избранное» always first, then the pinned chat, the other one neither muted, pinned nor archived.
    expect(sortEntries(conversations).map((e) => e.conversation.id)).toEqual([
      `saved-${anna.user.id}`,
      withVera,
      withBoris,
    ]);
    const borisEntry = conversations.find((e) => e.conversation.id === withBoris);
    if (!borisEntry) throw new Error('the chat with Boris is missing');
    const tile = chatTile(borisEntry, anna.user.id, null, Date.now());
    expect({ muted: tile.muted, pinned: tile.pinned, archived: tile.archived }).toEqual({
      muted: false,
      pinned: false,
      archived: false,
    });
    // Back at the defaults, the settings leave the list again.
    await api.patch(`/api/conversations/${withVera}/settings`, { pinned: false, mutedUntil: null }, anna.accessToken);
    const after = await api.get('/api/conversations', anna.accessToken);
    for (const e of after.body.conversations) expect(e).not.toHaveProperty('settings');
  });
});

describe('the compressed answer', () => {
  it('decodes to the same JSON, built and from the cache, and stays no-store', async () => {
    // Something new in the list, so the first request below builds it and the second is answered from the cache.
    await api.post(
      '/api/conversations/send',
      { conversationId: withBoris, type: 'TEXT', content: 'ещё' },
      boris.accessToken,
    );
    const hits = srv.server.ctx.lists.stats().hits;
    const built = await rawList(anna, 'gzip, deflate, br, zstd');
    const cached = await rawList(anna, 'gzip, deflate, br, zstd');
    expect(srv.server.ctx.lists.stats().hits).toBe(hits + 1);
    const plain = await rawList(anna);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    for (const res of [built, cached]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.body.length).toBeLessThan(plain.body.length);
      expect(brotliDecompressSync(res.body).equals(plain.body)).toBe(true);
    }
    expect(plain.headers['cache-control']).toBe('no-store');
    // Two chats and «Избранное».
    expect(JSON.parse(plain.body.toString('utf8')).conversations).toHaveLength(3);
    // Refused with q=0, or only gzip offered: the JSON as it is.
    for (const refused of ['gzip, br;q=0', 'gzip, deflate']) {
      const res = await rawList(anna, refused);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.equals(plain.body)).toBe(true);
    }
  });

  it('is offered for exactly the Accept-Encoding values that take br', () => {
    expect(acceptsBrotli(undefined)).toBe(false);
    expect(acceptsBrotli('')).toBe(false);
    expect(acceptsBrotli('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsBrotli('BR')).toBe(true);
    expect(acceptsBrotli('br;q=0.5')).toBe(true);
    expect(acceptsBrotli('br;q=0, *')).toBe(false);
    expect(acceptsBrotli('gzip, *;q=0.1')).toBe(true);
    expect(acceptsBrotli('gzip, *;q=0')).toBe(false);
    expect(acceptsBrotli(['gzip', 'br'])).toBe(true);
  });
});
