// Threads («Обсуждения») over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: replies stay out of the
// main history and the root carries their summary; a thread pages like the history; following by writing, by
// authoring the root and by being mentioned; unfollowing; unread replies of followed threads; a group with threads
// off refuses them (403); non-members and removed members are refused at once; live replies reach the open group
// and the followers only.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { publishThreadReply } from '../../server/messages/send-message';
import type { Message } from '../../src/contract/entities';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { type Api, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let gleb: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, vera, gleb] = await Promise.all(['anna', 'boris', 'vera', 'gleb'].map((n) => api.user(n)));
  for (const other of [boris, vera, gleb]) await befriend(api, anna, other);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

type Msg = {
  id: string;
  content: string;
  senderId: string;
  threadRootId?: string | null;
  thread?: { replyCount: number; lastReplyAt: string | null; repliers: string[] };
};

async function group(owner: TestUser, members: TestUser[]): Promise<string> {
  const res = await api.post(
    '/api/conversations',
    { participantIds: members.map((m) => m.user.id), title: 'Проект', isGroup: true },
    owner.accessToken,
  );
  expect(res.status).toBe(200);
  return res.body.conversation.id;
}

async function say(u: TestUser, conversationId: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await api.post(
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content, ...extra },
    u.accessToken,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message as Msg;
}

const reply = (u: TestUser, conversationId: string, rootId: string, content: string, extra = {}) =>
  say(u, conversationId, content, { threadRootId: rootId, ...extra });

const thread = (u: TestUser, rootId: string, query = '') => api.get(`/api/threads/${rootId}${query}`, u.accessToken);

async function unreadOf(u: TestUser, rootId: string): Promise<number | undefined> {
  const res = await api.get('/api/threads', u.accessToken);
  expect(res.status).toBe(200);
  return (res.body.threads as { root: Msg; unread: number }[]).find((t) => t.root.id === rootId)?.unread;
}

describe('replies', () => {
  it('stay out of the main history; the root carries the count and the last repliers', async () => {
    const id = await group(anna, [boris, vera]);
    const root = await say(anna, id, 'Обсудим релиз?');
    const r1 = await reply(boris, id, root.id, 'Да');
    expect(r1.threadRootId).toBe(root.id);
    await reply(vera, id, root.id, 'Конечно');
    await reply(boris, id, root.id, 'Когда?');
    const history = await api.get(`/api/conversations/${id}/messages?limit=100`, anna.accessToken);
    const messages = history.body.messages as Msg[];
    expect(messages.map((m) => m.content)).not.toContain('Да');
    const shown = messages.find((m) => m.id === root.id);
    expect(shown?.thread?.replyCount).toBe(3);
    expect(shown?.thread?.repliers).toEqual([boris.user.id, vera.user.id]);
    // The chat list's latest message and unread count ignore the replies.
    const list = await api.get('/api/conversations', vera.accessToken);
    const entry = (
      list.body.conversations as { conversation: { id: string; messages: Msg[] }; unreadCount: number }[]
    ).find((e) => e.conversation.id === id);
    expect(entry?.conversation.messages[0]?.id).toBe(root.id);
    expect(entry?.unreadCount).toBe(1);
  });

  it('page back like the history, oldest first', async () => {
    const id = await group(anna, [boris]);
    const root = await say(anna, id, 'Корень');
    for (let i = 1; i <= 5; i++) await reply(boris, id, root.id, `Ответ ${i}`);
    const first = await thread(anna, root.id, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.root.id).toBe(root.id);
    expect(first.body.root.thread.replyCount).toBe(5);
    expect((first.body.messages as Msg[]).map((m) => m.content)).toEqual(['Ответ 4', 'Ответ 5']);
    expect(first.body.hasMore).toBe(true);
    const before = first.body.messages[0].id;
    const second = await thread(anna, root.id, `?limit=10&before=${before}`);
    expect((second.body.messages as Msg[]).map((m) => m.content)).toEqual(['Ответ 1', 'Ответ 2', 'Ответ 3']);
    expect(second.body.hasMore).toBe(false);
    // A message of the chat's main line is not a place in this thread.
    const outside = await thread(anna, root.id, `?limit=10&before=${root.id}`);
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe('before: сообщение не найдено в этом обсуждении');
  });

  it('are idempotent by clientMessageId; a reply cannot be a root, nor come from another conversation', async () => {
    const id = await group(anna, [boris]);
    const other = await group(anna, [vera]);
    const root = await say(anna, id, 'Корень');
    const a = await reply(boris, id, root.id, 'Один раз', { clientMessageId: 'thread-1' });
    const b = await reply(boris, id, root.id, 'Один раз', { clientMessageId: 'thread-1' });
    expect(b.id).toBe(a.id);
    expect((await thread(boris, root.id)).body.messages).toHaveLength(1);
    const nested = await api.post(
      '/api/conversations/send',
      { conversationId: id, type: 'TEXT', content: 'x', threadRootId: a.id },
      anna.accessToken,
    );
    expect(nested.status).toBe(400);
    expect(nested.body.message).toMatch(/Обсуждение/);
    const elsewhere = await api.post(
      '/api/conversations/send',
      { conversationId: other, type: 'TEXT', content: 'x', threadRootId: root.id },
      anna.accessToken,
    );
    expect(elsewhere.status).toBe(400);
  });

  it('a reply sent again at once under the same clientMessageId is one reply (a retry racing a lost answer)', async () => {
    const id = await group(anna, [boris, vera]);
    const root = await say(anna, id, 'Гонка');
    const body = {
      conversationId: id,
      type: 'TEXT',
      content: 'Только раз',
      threadRootId: root.id,
      clientMessageId: 'race-1',
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => api.post('/api/conversations/send', body, boris.accessToken)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.message.id)).size).toBe(1);
    const page = await thread(vera, root.id);
    expect((page.body.messages as Msg[]).map((m) => m.content)).toEqual(['Только раз']);
    expect(page.body.root.thread.replyCount).toBe(1);
    // The same id for a message of the timeline is another message: refused, not merged.
    const elsewhere = await api.post(
      '/api/conversations/send',
      { ...body, threadRootId: undefined },
      boris.accessToken,
    );
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.message).toMatch(/clientMessageId/);
  });

  it('carry files and quote a reply of the same thread, as the panel sends them', async () => {
    const id = await group(anna, [boris]);
    const root = await say(anna, id, 'Корень');
    const first = await reply(boris, id, root.id, 'Первый');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('план'))], { type: 'text/plain' }), 'plan.txt');
    const up = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${anna.accessToken}` },
      body: form,
    });
    expect(up.status).toBe(201);
    const { attachment } = (await up.json()) as { attachment: { url: string; type: string } };
    const withFile = await reply(anna, id, root.id, 'См. план', {
      type: 'FILE',
      attachments: [{ url: attachment.url, type: attachment.type }],
      replyToId: first.id,
    });
    const page = (await thread(boris, root.id)).body.messages as (Msg & {
      attachments: { url: string; name: string | null }[];
      replyTo: { id: string } | null;
    })[];
    const shown = page.find((m) => m.id === withFile.id);
    expect(shown?.attachments.map((a) => [a.url, a.name])).toEqual([[attachment.url, 'plan.txt']]);
    expect(shown?.replyTo?.id).toBe(first.id);
    // The root is not of the thread: quoting it from inside is refused.
    const quoteRoot = await api.post(
      '/api/conversations/send',
      { conversationId: id, type: 'TEXT', content: 'x', threadRootId: root.id, replyToId: root.id },
      anna.accessToken,
    );
    expect(quoteRoot.status).toBe(400);
  });

  it('are only for groups', async () => {
    const direct = await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken);
    const id = direct.body.conversation.id;
    const root = await say(anna, id, 'Привет');
    const res = await api.post(
      '/api/conversations/send',
      { conversationId: id, type: 'TEXT', content: 'x', threadRootId: root.id },
      boris.accessToken,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Обсуждения есть только в группах');
  });
});

describe('following', () => {
  it('by writing, by authoring the root, by being mentioned; unread counts others’ replies; unfollow', async () => {
    const id = await group(anna, [boris, vera, gleb]);
    const root = await say(anna, id, 'Кто берёт задачу?');
    await reply(boris, id, root.id, 'Я могу');
    // Anna (the root's author) and Boris (wrote) follow; Vera and Gleb do not.
    expect(await unreadOf(anna, root.id)).toBe(1);
    expect(await unreadOf(boris, root.id)).toBe(0);
    expect(await unreadOf(vera, root.id)).toBeUndefined();
    await reply(boris, id, root.id, 'Вера, поможешь?', { mentions: [vera.user.id] });
    // A new follower has read none of it: both replies are unread.
    expect(await unreadOf(vera, root.id)).toBe(2);
    expect(await unreadOf(anna, root.id)).toBe(2);
    expect((await thread(vera, root.id)).body.following).toBe(true);
    expect((await thread(gleb, root.id)).body.following).toBe(false);

    // Reading moves the position to the newest reply.
    const read = await api.post('/api/threads/read', { rootId: root.id }, anna.accessToken);
    expect(read.status).toBe(200);
    expect(await unreadOf(anna, root.id)).toBe(0);

    // Unfollowing: gone from the list, no unread; a reply from someone else does not bring it back.
    const off = await api.post('/api/threads/follow', { rootId: root.id, follow: false }, anna.accessToken);
    expect(off.body).toEqual({ following: false });
    await reply(vera, id, root.id, 'Помогу');
    expect(await unreadOf(anna, root.id)).toBeUndefined();
    // Writing follows again.
    await reply(anna, id, root.id, 'Спасибо');
    expect(await unreadOf(anna, root.id)).toBe(0);
    // Following by hand.
    const on = await api.post('/api/threads/follow', { rootId: root.id, follow: true }, gleb.accessToken);
    expect(on.body).toEqual({ following: true });
    expect(await unreadOf(gleb, root.id)).toBe(4);
  });

  it('a reply reaches the open group and the followers elsewhere, not the others', async () => {
    const id = await group(anna, [boris, vera]);
    const root = await say(anna, id, 'Корень');
    const annaSocket = await connect(srv.url, anna.accessToken);
    const veraSocket = await connect(srv.url, vera.accessToken);
    const veraSeen = recorder(veraSocket);
    const heard = next(annaSocket, 'thread:reply');
    await reply(boris, id, root.id, 'Ответ');
    const got = await heard;
    expect(got.message.threadRootId).toBe(root.id);
    expect(got.thread.replyCount).toBe(1);
    await roundTrip(veraSocket);
    expect(veraSeen.events()).not.toContain('thread:reply');
    expect(veraSeen.events()).not.toContain('message:notify');
  });

  it("a reply's deletion tells every member the root's new summary; other deletions carry none", async () => {
    const id = await group(anna, [boris, vera]);
    const root = await say(anna, id, 'Корень');
    const first = await reply(boris, id, root.id, 'Первый');
    const second = await reply(vera, id, root.id, 'Второй');
    const annaSocket = await connect(srv.url, anna.accessToken);
    const heard = next(annaSocket, 'message:deleted');
    expect((await api.post('/api/messages/delete', { messageId: second.id }, vera.accessToken)).status).toBe(200);
    const got = await heard;
    expect(got).toMatchObject({ conversationId: id, messageId: second.id, threadRootId: root.id });
    expect(got.thread).toMatchObject({ replyCount: 1, repliers: [boris.user.id] });
    // The last reply gone: nothing left to show.
    const again = next(annaSocket, 'message:deleted');
    expect((await api.post('/api/messages/delete', { messageId: first.id }, boris.accessToken)).status).toBe(200);
    expect((await again).thread).toEqual({ replyCount: 0, lastReplyAt: null, repliers: [] });
    expect((await thread(anna, root.id)).body.root.thread?.replyCount ?? 0).toBe(0);
    const plain = next(annaSocket, 'message:deleted');
    expect((await api.post('/api/messages/delete', { messageId: root.id }, anna.accessToken)).status).toBe(200);
    const rootGone = await plain;
    expect(rootGone.messageId).toBe(root.id);
    expect(rootGone.threadRootId).toBeUndefined();
    expect(rootGone.thread).toBeUndefined();
  });
});

describe('search', () => {
  it('finds thread replies for members, with the root they answer; not for others', async () => {
    const id = await group(anna, [boris]);
    const root = await say(anna, id, 'Планы');
    await reply(boris, id, root.id, 'Предлагаю черничный пирог');
    const found = await api.get(`/api/search?q=${encodeURIComponent('черничный')}`, anna.accessToken);
    expect(found.status).toBe(200);
    const hits = found.body.results as { message: Msg }[];
    expect(hits.map((h) => h.message.threadRootId)).toEqual([root.id]);
    const outsider = await api.get(`/api/search?q=${encodeURIComponent('черничный')}`, gleb.accessToken);
    expect(outsider.body.results).toEqual([]);
  });
});

describe('notifications', () => {
  it('Web Push and tabs elsewhere: the followers only, not the writer nor the muted', async () => {
    const id = await group(anna, [boris, vera, gleb]);
    const root = await say(anna, id, 'Корень');
    const sent = (await reply(boris, id, root.id, 'Ответ')) as unknown as Message;
    // Followers now: Anna (the root's author) and Boris (wrote). Vera and Gleb never joined the thread.
    const pushed: string[][] = [];
    const outside: string[][] = [];
    const members = [anna, boris, vera, gleb].map((u) => u.user.id);
    const deps = {
      db: srv.server.ctx.db,
      realtime: {
        typingEnded: () => {},
        toConversation: () => {},
        toUsersOutside: (ids: readonly string[]) => void outside.push([...ids]),
      },
      push: { message: (_m: Message, ids: readonly string[]) => void pushed.push([...ids]) },
    };
    await publishThreadReply(deps as never, sent, root.id, members, []);
    expect(pushed).toEqual([[anna.user.id]]);
    expect(outside).toEqual([[anna.user.id]]);
    // Anna muted the group: no push for her (not mentioned), the tab event still.
    await publishThreadReply(deps as never, sent, root.id, members, [anna.user.id]);
    expect(pushed[1]).toEqual([]);
    expect(outside[1]).toEqual([anna.user.id]);
  });
});

describe('access', () => {
  it('non-members and removed members are refused at once', async () => {
    const id = await group(anna, [boris, vera]);
    const root = await say(anna, id, 'Корень');
    await reply(vera, id, root.id, 'Ответ');
    expect((await thread(gleb, root.id)).status).toBe(404);
    const outsider = await api.post(
      '/api/conversations/send',
      { conversationId: id, type: 'TEXT', content: 'x', threadRootId: root.id },
      gleb.accessToken,
    );
    expect(outsider.status).toBe(404);
    expect((await api.post('/api/threads/follow', { rootId: root.id, follow: true }, gleb.accessToken)).status).toBe(
      404,
    );

    const removed = await api.post(
      '/api/conversations/members/remove',
      { conversationId: id, userId: vera.user.id },
      anna.accessToken,
    );
    expect(removed.status).toBe(200);
    expect((await thread(vera, root.id)).status).toBe(404);
    expect(await unreadOf(vera, root.id)).toBeUndefined();
    expect((await api.post('/api/threads/read', { rootId: root.id }, vera.accessToken)).status).toBe(404);
  });

  it('a member added later sees the threads of the history they can see only', async () => {
    // «История для новых участников» «Скрыта»: the newcomer reads from joining on, threads included.
    const hidden = await group(anna, [boris]);
    await api.post('/api/conversations/history', { conversationId: hidden, visible: false }, anna.accessToken);
    const old = await say(anna, hidden, 'До Глеба');
    await reply(boris, hidden, old.id, 'Ответ до Глеба');
    const add = await api.post(
      '/api/conversations/members/add',
      { conversationId: hidden, userIds: [gleb.user.id] },
      anna.accessToken,
    );
    expect(add.status).toBe(200);
    const fresh = await say(anna, hidden, 'При Глебе');
    expect((await thread(gleb, old.id)).status).toBe(404);
    expect((await thread(gleb, fresh.id)).status).toBe(200);
    // «Видна» (a new group's choice): the whole history, and every thread in it.
    const open = await group(anna, [boris]);
    const earlier = await say(anna, open, 'До Глеба');
    await reply(boris, open, earlier.id, 'Ответ до Глеба');
    await api.post(
      '/api/conversations/members/add',
      { conversationId: open, userIds: [gleb.user.id] },
      anna.accessToken,
    );
    const seen = await thread(gleb, earlier.id);
    expect(seen.status).toBe(200);
    expect(JSON.stringify(seen.body)).toContain('Ответ до Глеба');
  });

  it('threads off: owners and admins only; then every thread route answers 403 in Russian', async () => {
    const id = await group(anna, [boris]);
    const root = await say(anna, id, 'Корень');
    await reply(boris, id, root.id, 'Ответ');
    const notAdmin = await api.post(
      '/api/conversations/threads',
      { conversationId: id, enabled: false },
      boris.accessToken,
    );
    expect(notAdmin.status).toBe(403);
    const off = await api.post('/api/conversations/threads', { conversationId: id, enabled: false }, anna.accessToken);
    expect(off.status).toBe(200);
    expect(off.body.conversation.threadsOff).toBe(true);
    const send = await api.post(
      '/api/conversations/send',
      { conversationId: id, type: 'TEXT', content: 'x', threadRootId: root.id },
      boris.accessToken,
    );
    expect(send.status).toBe(403);
    expect(send.body.message).toBe('Обсуждения в этой группе выключены');
    expect((await thread(boris, root.id)).status).toBe(403);
    expect((await api.post('/api/threads/follow', { rootId: root.id, follow: true }, boris.accessToken)).status).toBe(
      403,
    );
    expect(await unreadOf(anna, root.id)).toBeUndefined();
    const on = await api.post('/api/conversations/threads', { conversationId: id, enabled: true }, anna.accessToken);
    expect(on.body.conversation.threadsOff).toBeUndefined();
    expect((await thread(boris, root.id)).status).toBe(200);
  });
});

const redis = await redisAvailable();

describe.skipIf(!redis)('two server processes behind Redis', () => {
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    one = await startTestServer({ redisUrl });
    // One deployment, two processes: the same data directory and database.
    two = await startTestServer({ redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl });
  });
  afterAll(async () => {
    closeAll();
    await two?.close();
    await one?.close();
  });

  it("a reply deleted on one process changes its root's count for a member on the other", async () => {
    const api1 = client(one.url);
    const [owner, member] = await Promise.all(['t-own', 't-mem'].map((n) => api1.user(n)));
    await befriend(api1, owner, member);
    const made = await api1.post(
      '/api/conversations',
      { participantIds: [member.user.id], title: 'Цех', isGroup: true },
      owner.accessToken,
    );
    const id = made.body.conversation.id as string;
    const send = (u: TestUser, content: string, extra = {}) =>
      api1.post('/api/conversations/send', { conversationId: id, type: 'TEXT', content, ...extra }, u.accessToken);
    const root = (await send(owner, 'Корень')).body.message as Msg;
    await send(member, 'Первый', { threadRootId: root.id });
    const gone = (await send(owner, 'Второй', { threadRootId: root.id })).body.message as Msg;
    const memberOnTwo = await connect(two.url, member.accessToken);
    type Deleted = { messageId: string; threadRootId?: string; thread?: Msg['thread'] };
    const heard = next<Deleted>(memberOnTwo, 'message:deleted', (p) => p.messageId === gone.id);
    expect((await api1.post('/api/messages/delete', { messageId: gone.id }, owner.accessToken)).status).toBe(200);
    const got = await heard;
    expect(got.threadRootId).toBe(root.id);
    expect(got.thread).toMatchObject({ replyCount: 1, repliers: [member.user.id] });
  });
});
