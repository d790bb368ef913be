// Idempotent sends: a retry with the same clientMessageId answers the first message, even
// concurrently and even after the quoted message was deleted; the same id with anything else (text, type,
// quote, attachments, conversation) is a 409 that stores nothing. On SQLite, or PostgreSQL with TEST_PG_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let ab: string;
let ac: string;

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function upload(u: TestUser, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG_1x1], { type: 'image/png' }), name);
  const res = await fetch(`${srv.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${u.accessToken}` },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { url: string }).url;
}

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [alice, bob, carol] = await Promise.all([api.user('alice'), api.user('bob'), api.user('carol')]);
  await befriend(api, alice, bob);
  await befriend(api, alice, carol);
  ab = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation.id;
  ac = (await api.post('/api/conversations/with', { userId: carol.user.id }, alice.accessToken)).body.conversation.id;
});
afterAll(() => srv.close());

let n = 0;
const freshId = () => `idem-${Date.now().toString(36)}-${n++}`;
const send = (u: TestUser, body: Record<string, unknown>) => api.post('/api/conversations/send', body, u.accessToken);
const history = async (conversationId: string) =>
  (await api.get(`/api/conversations/${conversationId}/messages?limit=200`, alice.accessToken)).body.messages as {
    id: string;
    clientMessageId: string | null;
  }[];
const stored = async (conversationId: string, clientMessageId: string) =>
  (await history(conversationId)).filter((m) => m.clientMessageId === clientMessageId);

describe('a retried clientMessageId', () => {
  it('answers 200 with the first message, concurrently and later, and stores one', async () => {
    const body = { conversationId: ab, type: 'TEXT', content: 'один раз', clientMessageId: freshId() };
    const first = await Promise.all(Array.from({ length: 6 }, () => send(alice, body)));
    expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(first.map((r) => r.body.message.id)).size).toBe(1);
    // The same body with surrounding spaces is the same message (the text is stored trimmed).
    const later = await send(alice, { ...body, content: '  один раз ' });
    expect(later.status).toBe(200);
    expect(later.body.message.id).toBe(first[0]?.body.message.id);
    expect(await stored(ab, body.clientMessageId)).toHaveLength(1);
  });

  it('is a retry with the same attachments and the same quote, even once the quote is deleted', async () => {
    const quoted = (await send(bob, { conversationId: ab, type: 'TEXT', content: 'на это отвечают' })).body.message;
    const url = await upload(alice, 'a.png');
    const body = {
      conversationId: ab,
      type: 'IMAGE',
      content: 'фото',
      replyToId: quoted.id,
      attachments: [{ url, type: 'IMAGE' }],
      clientMessageId: freshId(),
    };
    const first = await send(alice, body);
    expect(first.status).toBe(200);
    expect(first.body.message.attachments).toHaveLength(1);
    expect(first.body.message.replyTo.id).toBe(quoted.id);
    expect((await api.post('/api/messages/delete', { messageId: quoted.id }, bob.accessToken)).status).toBe(200);
    const retry = await send(alice, body);
    expect(retry.status).toBe(200);
    expect(retry.body.message.id).toBe(first.body.message.id);
  });

  it('is another sender’s own id space', async () => {
    const body = { conversationId: ab, type: 'TEXT', content: 'у каждого свой', clientMessageId: freshId() };
    const mine = await send(alice, body);
    const theirs = await send(bob, body);
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.body.message.id).not.toBe(mine.body.message.id);
  });
});

describe('the same clientMessageId with a different message', () => {
  it('is a 409 with a Russian message for another text, type, quote or attachments, and stores nothing', async () => {
    const quoted = (await send(bob, { conversationId: ab, type: 'TEXT', content: 'цитата' })).body.message;
    const [u1, u2] = [await upload(alice, 'one.png'), await upload(alice, 'two.png')];
    const clientMessageId = freshId();
    const base = {
      conversationId: ab,
      type: 'IMAGE',
      content: 'подпись',
      attachments: [{ url: u1, type: 'IMAGE' }],
      clientMessageId,
    };
    const first = await send(alice, base);
    expect(first.status).toBe(200);
    const variants = [
      { ...base, content: 'другая подпись' },
      { ...base, type: 'FILE', attachments: [{ url: u1, type: 'FILE' }] },
      { ...base, replyToId: quoted.id },
      { ...base, attachments: [{ url: u2, type: 'IMAGE' }] },
      {
        ...base,
        attachments: [
          { url: u1, type: 'IMAGE' },
          { url: u2, type: 'IMAGE' },
        ],
      },
      { conversationId: ab, type: 'TEXT', content: 'просто текст', clientMessageId },
    ];
    for (const body of variants) {
      const res = await send(alice, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.message).toMatch(/clientMessageId уже использован для другого сообщения/);
    }
    const all = await stored(ab, clientMessageId);
    expect(all.map((m) => m.id)).toEqual([first.body.message.id]);
  });

  it('is a 409 in another conversation', async () => {
    const body = { conversationId: ab, type: 'TEXT', content: 'сюда', clientMessageId: freshId() };
    expect((await send(alice, body)).status).toBe(200);
    const elsewhere = await send(alice, { ...body, conversationId: ac });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.message).toMatch(/другой беседы/);
    expect(await stored(ac, body.clientMessageId)).toHaveLength(0);
  });

  it('races a retry: concurrent different bodies store one message, the others get 409', async () => {
    const clientMessageId = freshId();
    const bodies = ['первый', 'второй', 'третий'].map((content) => ({
      conversationId: ab,
      type: 'TEXT',
      content,
      clientMessageId,
    }));
    const results = await Promise.all(bodies.map((b) => send(alice, b)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
    expect(await stored(ab, clientMessageId)).toHaveLength(1);
  });
});
