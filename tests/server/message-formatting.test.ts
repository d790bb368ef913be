// Formatted text over real HTTP and websockets on the real server (SQLite, or PostgreSQL with TEST_PG_URL): the
// ranges a send or an edit carries are checked (src/contract/message-entities.ts), stored with the message and
// returned wherever it is; a refused list is a 400 in Russian and nothing is stored.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
  await befriend(api, alice, bob);
});
afterAll(() => srv.close());
afterEach(closeAll);

type Entity = { type: string; offset: number; length: number; url?: string; language?: string };
type Msg = { id: string; content: string; entities?: Entity[]; forwardedFrom?: unknown; replyTo?: { content: string } };

let chat: string;
const direct = async () => {
  if (chat) return chat;
  const res = await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken);
  expect(res.status).toBe(200);
  chat = res.body.conversation.id as string;
  return chat;
};
const send = (content: string, entities?: unknown, u: TestUser = alice) =>
  direct().then((conversationId) =>
    api.post('/api/conversations/send', { conversationId, type: 'TEXT', content, entities }, u.accessToken),
  );
const history = async (u: TestUser = bob) => {
  const res = await api.get(`/api/conversations/${await direct()}/messages?limit=200`, u.accessToken);
  expect(res.status).toBe(200);
  return res.body.messages as Msg[];
};

describe('sending formatted text', () => {
  it('stores the ranges with the plain text and returns them in the answer, the events, history and the list', async () => {
    const c = await direct();
    const bobTab = await connect(srv.url, bob.accessToken);
    const text = 'жирный и код 🙂 ссылка';
    const entities: Entity[] = [
      { type: 'bold', offset: 0, length: 6 },
      { type: 'italic', offset: 0, length: 3 },
      { type: 'code', offset: 9, length: 3 },
      { type: 'spoiler', offset: 13, length: 2 },
      { type: 'text_link', offset: 16, length: 6, url: 'https://example.org/путь' },
    ];
    // Bob's tab has not joined the chat's room: the message reaches it as message:notify.
    const arrived = next<{ message: Msg }>(bobTab, 'message:notify', (p) => p.message.content === text);
    const res = await send(text, entities);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = [
      entities[0],
      entities[1],
      entities[2],
      entities[3],
      { ...entities[4], url: 'https://example.org/%D0%BF%D1%83%D1%82%D1%8C' },
    ];
    expect(res.body.message.content).toBe(text);
    expect(res.body.message.entities).toEqual(stored);
    expect((await arrived).message.entities).toEqual(stored);
    const found = (await history()).find((m) => m.id === res.body.message.id);
    expect(found?.entities).toEqual(stored);
    const list = await api.get('/api/conversations', bob.accessToken);
    const entry = (list.body.conversations as { conversation: { id: string; messages: Msg[] } }[]).find(
      (e) => e.conversation.id === c,
    );
    // The preview reads the plain text; the message still carries its ranges.
    expect(entry?.conversation.messages[0].content).toBe(text);
    expect(entry?.conversation.messages[0].entities).toEqual(stored);
  });

  it('keeps a plain message plain (no entities field) and nests ranges, a code block with its language', async () => {
    const plain = await send('просто текст');
    expect(plain.status).toBe(200);
    expect(plain.body.message.entities).toBeUndefined();
    const block = await send('> цитата\nconst a = 1;', [
      { type: 'blockquote', offset: 0, length: 8 },
      { type: 'pre', offset: 9, length: 12, language: 'ts' },
      { type: 'bold', offset: 2, length: 6 },
      { type: 'underline', offset: 2, length: 6 },
    ]);
    expect(block.status, JSON.stringify(block.body)).toBe(200);
    expect(block.body.message.entities).toEqual([
      { type: 'blockquote', offset: 0, length: 8 },
      { type: 'bold', offset: 2, length: 6 },
      { type: 'underline', offset: 2, length: 6 },
      { type: 'pre', offset: 9, length: 12, language: 'ts' },
    ]);
  });

  it('moves the ranges with the trimmed text', async () => {
    const res = await send('  **жир**  ', [{ type: 'bold', offset: 2, length: 7 }]);
    expect(res.status).toBe(200);
    expect(res.body.message.content).toBe('**жир**');
    expect(res.body.message.entities).toEqual([{ type: 'bold', offset: 0, length: 7 }]);
  });

  const refusals: [string, unknown, string][] = [
    ['a range past the end', [{ type: 'bold', offset: 3, length: 10 }], 'Форматирование выходит за пределы текста'],
    ['an empty range', [{ type: 'bold', offset: 1, length: 0 }], 'Участок форматирования не может быть пустым'],
    ['a negative offset', [{ type: 'bold', offset: -1, length: 2 }], 'Неверное форматирование текста'],
    ['a fractional length', [{ type: 'bold', offset: 0, length: 1.5 }], 'Неверное форматирование текста'],
    ['an unknown type', [{ type: 'blink', offset: 0, length: 2 }], 'Неизвестный вид форматирования текста'],
    [
      'crossing ranges',
      [
        { type: 'bold', offset: 0, length: 5 },
        { type: 'italic', offset: 3, length: 5 },
      ],
      'Участки форматирования пересекаются, а не вложены друг в друга',
    ],
    [
      'a javascript: link',
      [{ type: 'text_link', offset: 0, length: 4, url: 'javascript:alert(1)' }],
      'Ссылка должна вести на адрес http://, https:// или mailto:',
    ],
    [
      'a link without an address',
      [{ type: 'text_link', offset: 0, length: 4 }],
      'Ссылка должна вести на адрес http://, https:// или mailto:',
    ],
    [
      'formatting inside code',
      [
        { type: 'code', offset: 0, length: 8 },
        { type: 'bold', offset: 1, length: 2 },
      ],
      'Внутри кода другое форматирование не допускается',
    ],
    ['half an emoji', [{ type: 'bold', offset: 0, length: 10 }], 'Форматирование не может разрезать символ пополам'],
    [
      'a language on bold',
      [{ type: 'bold', offset: 0, length: 2, language: 'ts' }],
      'Язык указывают только у блока кода',
    ],
    [
      'too many ranges',
      Array.from({ length: 501 }, () => ({ type: 'bold', offset: 0, length: 1 })),
      'entities: Не больше 500 участков форматирования в сообщении',
    ],
  ];
  it.each(refusals)('refuses %s with a 400 in Russian and stores nothing', async (_kind, entities, message) => {
    const before = (await history()).length;
    const res = await send('проверка 🙂', entities);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await history()).length).toBe(before);
  });
});

describe('editing and forwarding', () => {
  it('an edit replaces the ranges (also when only they change), tells the members, and clears them when sent none', async () => {
    const sent = (await send('текст', [{ type: 'bold', offset: 0, length: 5 }])).body.message as Msg;
    const bobTab = await connect(srv.url, bob.accessToken);
    const edited = next<{ messageId: string; entities?: Entity[] }>(bobTab, 'message:edited');
    const res = await api.post(
      '/api/messages/edit',
      { messageId: sent.id, content: 'текст', entities: [{ type: 'italic', offset: 1, length: 3 }] },
      alice.accessToken,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message.entities).toEqual([{ type: 'italic', offset: 1, length: 3 }]);
    expect((await edited).entities).toEqual([{ type: 'italic', offset: 1, length: 3 }]);
    expect((await history()).find((m) => m.id === sent.id)?.entities).toEqual([
      { type: 'italic', offset: 1, length: 3 },
    ]);
    const bad = await api.post(
      '/api/messages/edit',
      { messageId: sent.id, content: 'новый', entities: [{ type: 'bold', offset: 0, length: 9 }] },
      alice.accessToken,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Форматирование выходит за пределы текста');
    expect((await history()).find((m) => m.id === sent.id)?.content).toBe('текст');
    const cleared = next<{ messageId: string; entities?: Entity[] }>(bobTab, 'message:edited');
    const plain = await api.post('/api/messages/edit', { messageId: sent.id, content: 'текст' }, alice.accessToken);
    expect(plain.status).toBe(200);
    expect(plain.body.message.entities).toBeUndefined();
    expect((await cleared).entities).toBeUndefined();
    expect((await history()).find((m) => m.id === sent.id)?.entities).toBeUndefined();
  });

  it('a forwarded copy keeps the formatting; a quote of it is plain text', async () => {
    const sent = (
      await send('код и ссылка', [
        { type: 'code', offset: 0, length: 3 },
        { type: 'text_link', offset: 6, length: 6, url: 'mailto:a@example.org' },
      ])
    ).body.message as Msg;
    const res = await api.post(
      '/api/messages/forward',
      { messageIds: [sent.id], conversationIds: [await direct()] },
      bob.accessToken,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messages[0].entities).toEqual(sent.entities);
    const copy = (await history(alice)).find((m) => m.id === res.body.messages[0].id);
    expect(copy?.entities).toEqual(sent.entities);
    const conversationId = await direct();
    const reply = await api.post(
      '/api/conversations/send',
      { conversationId, type: 'TEXT', content: 'ответ', replyToId: sent.id },
      bob.accessToken,
    );
    expect(reply.body.message.replyTo).toEqual({ id: sent.id, content: 'код и ссылка' });
  });
});
