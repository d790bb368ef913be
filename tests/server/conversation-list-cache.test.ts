// GET /api/conversations is answered from a per-user cache (server/conversations/list-cache.ts). After every kind of
// change a user can make, each user's answer must equal a list built afresh from the database (loadConversationEntries
// on the same server, bypassing the cache): a write path that forgets `lists.changed` fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConversationEntries } from '../../server/conversations/conversation-view';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, closeAll, connect, next, presenceWatch, type TestUser } from './socket-helpers';

let srv: TestServer;
let presence: ReturnType<typeof presenceWatch>;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let everyone: TestUser[];
let direct: string;
let group: string;

const listOf = async (u: TestUser) => {
  const res = await api.get('/api/conversations', u.accessToken);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return res.body;
};
/** Built from the database now, bypassing the cache (and leaving it as it is). */
const fresh = async (u: TestUser) =>
  JSON.parse(JSON.stringify({ conversations: await loadConversationEntries(srv.server.ctx, u.user.id) }));
/** Fills the cache for everyone (and checks the second read is a hit). */
async function prime() {
  for (const u of everyone) await listOf(u);
  const { hits } = srv.server.ctx.lists.stats();
  for (const u of everyone) await listOf(u);
  expect(srv.server.ctx.lists.stats().hits).toBe(hits + everyone.length);
}
/** Every user's answer (cached or not) equals a fresh build. */
async function expectAllFresh() {
  const served = await Promise.all(everyone.map(listOf));
  const built = [];
  for (const u of everyone) built.push(await fresh(u));
  expect(served).toEqual(built);
}
const send = async (u: TestUser, conversationId: string, body: Record<string, unknown> = {}) => {
  const res = await api.post(
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content: 'привет', ...body },
    u.accessToken,
  );
  expect(res.status).toBe(200);
  return res.body.message as { id: string };
};

beforeAll(async () => {
  srv = await startTestServer({ conversationListCache: 100 });
  presence = presenceWatch(srv.server.ctx.realtime);
  api = client(srv.url);
  [alice, bob, carol] = await Promise.all([api.user('alice'), api.user('bob'), api.user('carol')]);
  everyone = [alice, bob, carol];
  await befriend(api, alice, bob);
  await befriend(api, alice, carol);
  direct = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation.id;
  group = (
    await api.post(
      '/api/conversations',
      { participantIds: [bob.user.id, carol.user.id], title: 'Клуб' },
      alice.accessToken,
    )
  ).body.conversation.id;
});
afterAll(async () => {
  closeAll();
  await srv?.close();
});

describe('the cached conversation list', () => {
  it('is served from the cache, and would be stale if a change were not announced to it', async () => {
    await prime();
    // A write behind the server's back (no lists.changed): the cache still answers with the old name.
    const before = await listOf(alice);
    await srv.server.ctx.db
      .updateTable('users')
      .set({ display_name: 'Тайком' })
      .where('id', '=', bob.user.id)
      .execute();
    expect(await listOf(alice)).toEqual(before);
    expect(await fresh(alice)).not.toEqual(before);
    srv.server.ctx.lists.changed([alice.user.id, bob.user.id, carol.user.id]);
    await expectAllFresh();
  });

  // [what, the change, what to do before the cache is filled]
  const steps: [string, () => Promise<unknown>, (() => Promise<unknown>)?][] = [
    ['a direct message', () => send(alice, direct)],
    ['a group message', () => send(bob, group)],
    [
      'a reply',
      () => send(carol, group, { replyToId: latest, content: 'ответ' }),
      async () => (latest = (await send(alice, group)).id),
    ],
    [
      'receipts for the latest message',
      async () =>
        expect(
          (await api.post('/api/messages/receipts', { messageIds: [latest], status: 'READ' }, alice.accessToken))
            .status,
        ).toBe(200),
      async () => (latest = (await send(bob, direct)).id),
    ],
    [
      'marking a whole conversation read',
      () => api.post('/api/messages/mark-conversation-read', { conversationId: group }, carol.accessToken),
    ],
    [
      'deleting the latest message',
      async () =>
        expect((await api.post('/api/messages/delete', { messageId: latest }, alice.accessToken)).status).toBe(200),
      async () => (latest = (await send(alice, group)).id),
    ],
    [
      'a new group',
      () =>
        api.post(
          '/api/conversations',
          { participantIds: [carol.user.id], isGroup: true, title: 'Двое' },
          alice.accessToken,
        ),
    ],
    [
      'a new name and avatar',
      () => api.patch('/api/status/me', { displayName: 'Боб', avatarUrl: 'emoji:🙂' }, bob.accessToken),
    ],
    ['a new bio', () => api.patch('/api/status/me', { bio: 'О себе' }, carol.accessToken)],
    ['a new chosen status', () => api.patch('/api/status/me', { status: 'AWAY' }, alice.accessToken)],
  ];
  let latest = '';

  it('after a change inside one conversation, patches the kept list: only that entry is built again', async () => {
    await send(alice, direct);
    await prime();
    // «Избранное» stays first (docs/behaviour.md §10.31); the chats follow by activity.
    expect((await listOf(alice)).conversations[1].conversation.id).toBe(direct);
    const { patched } = srv.server.ctx.lists.stats();
    await send(carol, group);
    await expectAllFresh();
    // alice, bob and carol are in the group: each list was patched, none built whole.
    expect(srv.server.ctx.lists.stats().patched).toBe(patched + 3);
    // The patched entry moved to the top of alice's list, as in a fresh build.
    expect((await listOf(alice)).conversations[1].conversation.id).toBe(group);
  });

  it('builds a list whole after a change to a person in it', async () => {
    await prime();
    const { patched, misses } = srv.server.ctx.lists.stats();
    expect((await api.patch('/api/status/me', { bio: 'Ещё о себе' }, bob.accessToken)).status).toBe(200);
    await expectAllFresh();
    const after = srv.server.ctx.lists.stats();
    expect(after.patched).toBe(patched);
    expect(after.misses).toBeGreaterThan(misses);
  });

  for (const [what, change, before] of steps) {
    it(`equals a fresh build after ${what}`, async () => {
      await before?.();
      await prime();
      await change();
      await expectAllFresh();
    });
  }

  it('follows presence: coming online, going offline (last seen), also for an invisible user', async () => {
    await prime();
    const aliceOnline = presence.changed(alice.user.id);
    const watcher = await connect(srv.url, alice.accessToken);
    await aliceOnline;
    await expectAllFresh();
    await prime();
    const bobOnline = presence.changed(bob.user.id);
    const online = next(watcher, 'presence:update', (p) => p.userId === bob.user.id && p.status !== 'OFFLINE');
    const bobSocket = await connect(srv.url, bob.accessToken);
    await online;
    await bobOnline;
    await expectAllFresh();
    await prime();
    const bobOffline = presence.changed(bob.user.id);
    bobSocket.disconnect();
    await bobOffline;
    await expectAllFresh();

    expect((await api.patch('/api/status/me', { status: 'OFFLINE' }, carol.accessToken)).status).toBe(200);
    const carolOnline = presence.changed(carol.user.id);
    const carolSocket = await connect(srv.url, carol.accessToken);
    // Invisible: nobody is told, but the lists are (her connection's presence write is done before they are primed).
    await carolOnline;
    await prime();
    const lastSeen = async () =>
      (await fresh(alice)).conversations
        .flatMap(
          (e: { conversation: { participants: { user: { id: string; lastSeenAt: string | null } }[] } }) =>
            e.conversation.participants,
        )
        .find((p: { user: { id: string } }) => p.user.id === carol.user.id).user.lastSeenAt;
    const seenBefore = await lastSeen();
    const carolOffline = presence.changed(carol.user.id);
    carolSocket.disconnect();
    // The presence write stores last seen before it tells the lists.
    await carolOffline;
    expect(await lastSeen()).not.toBe(seenBefore);
    await expectAllFresh();
    watcher.disconnect();
  });
});
