// A secret chat's encrypted attachments over the real server (docs/secret-chats.md, "Files and voice messages"), on
// SQLite and (with TEST_PG_URL) PostgreSQL: ciphertext goes in as application/octet-stream and comes back byte for
// byte to the chat's members only — never to anyone else, never through the ordinary /uploads/ capability URLs —
// stored as it came (no sniffing, no re-encoding), under the file limit plus the GCM tag.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_UPLOAD_OVERHEAD } from '../../src/contract/secret';
import { client, startTestServer, storedUpload, storedUploads, type TestServer } from './harness';
import { secretChat } from './secret-helpers';
import { type Api, befriend, type TestUser } from './socket-helpers';

const LIMIT = 64 * 1024;
let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let secretId: string;
let plainId: string;

beforeAll(async () => {
  srv = await startTestServer({ uploadLimitBytes: LIMIT });
  api = client(srv.url);
  [anna, boris, vera] = await Promise.all(['anna', 'boris', 'vera'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
  await befriend(api, anna, vera);
  secretId = await secretChat(api, anna, [boris]);
  const plain = await api.post(
    '/api/conversations',
    { participantIds: [boris.user.id], isGroup: false },
    anna.accessToken,
  );
  expect([200, 201]).toContain(plain.status);
  plainId = plain.body.conversation.id;
});
afterAll(() => srv?.close());

async function upload(
  bytes: Uint8Array | ReadableStream<Uint8Array>,
  conversationId: string | null = secretId,
  token: string | null = anna.accessToken,
  type = 'application/octet-stream',
) {
  const query = conversationId === null ? '' : `?conversationId=${encodeURIComponent(conversationId)}`;
  const res = await fetch(`${srv.url}/api/secret/uploads${query}`, {
    method: 'POST',
    body: bytes,
    headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(bytes instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function download(url: string, token: string | null) {
  const res = await fetch(`${srv.url}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A PNG signature with noise after it: an ordinary upload would sniff and re-encode it; this one must not. */
function pngLooking(n: number): Buffer {
  return Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(n)]);
}

describe('POST /api/secret/uploads', () => {
  it('takes a member’s ciphertext and gives the same bytes back to every member', async () => {
    const bytes = pngLooking(3000);
    const res = await upload(bytes);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      url: expect.stringMatching(/^\/api\/secret\/uploads\/[0-9a-f]{32}$/),
      size: bytes.length,
    });
    const key = res.body.url.split('/').pop();
    // Stored as it came: no re-encoding, no metadata stripped, the random name the only name.
    expect((await storedUpload(srv, key)).equals(bytes)).toBe(true);
    const row = await srv.server.ctx.db
      .selectFrom('uploads')
      .selectAll()
      .where('storage_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      mime: 'application/octet-stream',
      kind: 'SECRET',
      original_name: key,
      conversation_id: secretId,
      width: null,
      height: null,
    });
    expect(Number(row.size)).toBe(bytes.length);

    for (const token of [anna.accessToken, boris.accessToken]) {
      const got = await download(res.body.url, token);
      expect(got.status).toBe(200);
      expect(got.bytes.equals(bytes)).toBe(true);
      expect(got.headers.get('content-type')).toBe('application/octet-stream');
      expect(got.headers.get('cache-control')).toBe('private, no-store');
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-disposition')).toMatch(/^attachment/);
    }
  });

  it('takes a body streamed without a length', async () => {
    const bytes = randomBytes(20_000);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.subarray(0, 7000));
        c.enqueue(bytes.subarray(7000));
        c.close();
      },
    });
    const res = await upload(stream);
    expect(res.status).toBe(201);
    expect((await download(res.body.url, boris.accessToken)).bytes.equals(bytes)).toBe(true);
  });

  it('refuses anyone but a member, a plaintext chat, an unknown chat and a missing token, storing nothing', async () => {
    const before = (await storedUploads(srv)).length;
    const bytes = randomBytes(100);
    const stranger = await upload(bytes, secretId, vera.accessToken);
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('Беседа не найдена');
    const plain = await upload(bytes, plainId);
    expect(plain.status).toBe(400);
    expect(plain.body.message).toBe('Это не секретный чат');
    expect((await upload(bytes, 'no-such-chat')).status).toBe(404);
    expect((await upload(bytes, secretId, null)).status).toBe(401);
    const noChat = await upload(bytes, null);
    expect(noChat.status).toBe(400);
    expect(noChat.body.message).toMatch(/conversationId/);
    const extra = await fetch(`${srv.url}/api/secret/uploads?conversationId=${secretId}&name=x`, {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${anna.accessToken}` },
    });
    expect(extra.status).toBe(400);
    expect((await upload(bytes, secretId, anna.accessToken, 'image/png')).status).toBe(415);
    const json = await upload(new TextEncoder().encode('{"a":1}'), secretId, anna.accessToken, 'application/json');
    expect(json.status).toBe(415);
    expect(json.body.message).toBe('Зашифрованный файл ожидается как application/octet-stream');
    const empty = await upload(randomBytes(SECRET_UPLOAD_OVERHEAD));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Файл пустой');
    expect((await storedUploads(srv)).length).toBe(before);
  });

  it('takes the file limit plus the GCM tag, and refuses one byte more with 413, announced or streamed', async () => {
    const largest = await upload(randomBytes(LIMIT + SECRET_UPLOAD_OVERHEAD));
    expect(largest.status).toBe(201);
    const before = (await storedUploads(srv)).length;
    const over = await upload(randomBytes(LIMIT + SECRET_UPLOAD_OVERHEAD + 1));
    expect(over.status).toBe(413);
    expect(over.body.message).toBe('Файл больше 1 МБ — такие файлы не отправляются');
    const streamed = await upload(
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(randomBytes(LIMIT));
          c.enqueue(randomBytes(SECRET_UPLOAD_OVERHEAD + 1));
          c.close();
        },
      }),
    );
    expect(streamed.status).toBe(413);
    expect(streamed.body.message).toBe('Файл больше 1 МБ — такие файлы не отправляются');
    expect((await storedUploads(srv)).length).toBe(before);
  });
});

describe('GET /api/secret/uploads/:key', () => {
  it('answers 404 to anyone outside the chat, without a token 401, and never through /uploads/', async () => {
    const res = await upload(randomBytes(500));
    expect(res.status).toBe(201);
    const key = res.body.url.split('/').pop();
    const stranger = await download(res.body.url, vera.accessToken);
    expect(stranger.status).toBe(404);
    expect(stranger.bytes.toString()).toMatch(/Файл не найден/);
    expect((await download(res.body.url, null)).status).toBe(401);
    expect((await download(`/uploads/${key}`, null)).status).toBe(404);
    expect((await download(`/uploads/${key}`, anna.accessToken)).status).toBe(404);
    expect((await download('/api/secret/uploads/not-a-key', anna.accessToken)).status).toBe(404);
    expect((await download(`/api/secret/uploads/${'0'.repeat(32)}`, anna.accessToken)).status).toBe(404);
  });

  it('stops serving a member once removed from the chat', async () => {
    const gleb = await api.user('gleb');
    await befriend(api, anna, gleb);
    const chat = await secretChat(api, anna, [gleb, vera], 'Тайная группа');
    const res = await upload(randomBytes(500), chat);
    expect(res.status).toBe(201);
    expect((await download(res.body.url, gleb.accessToken)).status).toBe(200);
    const removed = await api.post(
      '/api/conversations/members/remove',
      { conversationId: chat, userId: gleb.user.id },
      anna.accessToken,
    );
    expect(removed.status).toBe(200);
    expect((await download(res.body.url, gleb.accessToken)).status).toBe(404);
    expect((await download(res.body.url, anna.accessToken)).status).toBe(200);
  });
});
