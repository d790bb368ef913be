// The calls page's history over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: the user's calls newest
// first with their outcome and direction, paged with `before`; only conversations they are in, only what they can
// see («Очистить историю» removes the older calls for them alone); the media server's address for the page.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, ack, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let ab: string;
let bv: string;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, vera] = await Promise.all([api.user('anna'), api.user('boris'), api.user('vera')]);
  await befriend(api, anna, boris);
  await befriend(api, boris, vera);
  ab = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body.conversation.id;
  bv = (await api.post('/api/conversations/with', { userId: vera.user.id }, boris.accessToken)).body.conversation.id;
});
afterEach(() => closeAll());
afterAll(() => srv.close());

type Call = {
  id: string;
  conversationId: string;
  createdAt: string;
  call: { kind: string; outcome: string; callerId: string };
};
const history = async (u: TestUser, query = '') => api.get(`/api/calls${query}`, u.accessToken);

/** `from` calls in `conversationId`; the callee declines (or, with `cancel`, the caller hangs up first). */
async function call(from: TestUser, to: TestUser, conversationId: string, video: boolean, cancel = false) {
  const a = await connect(srv.url, from.accessToken);
  const b = await connect(srv.url, to.accessToken);
  const rang = next(b, 'call:incoming');
  expect(await ack(a, 'call:invite', { conversationId, video })).toEqual({ ok: true });
  await rang;
  if (cancel) await ack(a, 'call:end', { conversationId });
  else await ack(b, 'call:decline', { conversationId });
  a.close();
  b.close();
}

describe('call history', () => {
  it('lists one’s calls newest first, with outcome, kind and caller, across conversations', async () => {
    await call(anna, boris, ab, false);
    await call(boris, vera, bv, true, true);
    const res = await history(boris);
    expect(res.status).toBe(200);
    const calls = res.body.calls as Call[];
    expect(calls.map((c) => [c.conversationId, c.call.kind, c.call.outcome, c.call.callerId])).toEqual([
      [bv, 'video', 'cancelled', boris.user.id],
      [ab, 'audio', 'declined', anna.user.id],
    ]);
    expect(res.body.nextBefore).toBeNull();
    // Anna sees only the call she was in.
    const hers = (await history(anna)).body.calls as Call[];
    expect(hers.map((c) => c.conversationId)).toEqual([ab]);
  });

  it('pages with `before`, and refuses a bad limit with a Russian message', async () => {
    const first = await history(boris, '?limit=1');
    expect((first.body.calls as Call[]).length).toBe(1);
    expect(first.body.nextBefore).toBe((first.body.calls as Call[])[0]?.id);
    const second = await history(boris, `?limit=1&before=${first.body.nextBefore}`);
    expect((second.body.calls as Call[])[0]?.conversationId).toBe(ab);
    const bad = await history(boris, '?limit=1000');
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');
  });

  it('«Очистить историю» removes the older calls for the one who cleared only; strangers and guests see nothing', async () => {
    expect((await api.post('/api/conversations/clear', { conversationId: ab }, anna.accessToken)).status).toBe(200);
    expect((await history(anna)).body.calls).toEqual([]);
    expect(((await history(boris)).body.calls as Call[]).some((c) => c.conversationId === ab)).toBe(true);
    const stranger = await api.user('stranger');
    expect((await history(stranger)).body.calls).toEqual([]);
    expect((await api.get('/api/calls')).status).toBe(401);
  });

  it('names the media server address the tokens carry', async () => {
    const url = await api.get('/api/livekit/url', anna.accessToken);
    expect(url.status).toBe(200);
    const token = await api.post('/api/livekit/token', { room: 'demo-room' }, anna.accessToken);
    expect(url.body.url).toBe(token.body.url);
    expect((await api.get('/api/livekit/url')).status).toBe(401);
  });
});
