// GET /api/messages/deleted over the real server (SQLite, and PostgreSQL with TEST_PG_URL): a device that was closed
// asks which messages were deleted for everyone since it last asked, in its user's conversations only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [alice, bob, carol] = [await api.user('alice'), await api.user('bob'), await api.user('carol')];
  await befriend(api, alice, bob);
});
afterAll(() => srv?.close());

const deletedSince = (token: string, since?: string) =>
  api.get(`/api/messages/deleted${since ? `?since=${encodeURIComponent(since)}` : ''}`, token);

describe('deletions a closed device missed', () => {
  it('answers the deletions since a time in one’s own conversations, and a time to ask from next', async () => {
    const first = await deletedSince(bob.accessToken);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ deleted: [], more: false });
    const cursor = first.body.until as string;
    expect(Date.now() - Date.parse(cursor)).toBeGreaterThanOrEqual(4_000);

    const conversationId = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body
      .conversation.id;
    const send = async (content: string) =>
      (await api.post('/api/conversations/send', { conversationId, type: 'TEXT', content }, alice.accessToken)).body
        .message.id as string;
    const kept = await send('останется');
    const gone = await send('будет удалено');
    expect((await api.post('/api/messages/delete', { messageId: gone }, alice.accessToken)).status).toBe(200);

    const caught = await deletedSince(bob.accessToken, cursor);
    expect(caught.body.deleted).toEqual([{ id: gone, conversationId }]);
    expect(caught.body.more).toBe(false);
    expect(JSON.stringify(caught.body)).not.toContain(kept);
    // Someone outside the conversation hears nothing of it.
    expect((await deletedSince(carol.accessToken, cursor)).body.deleted).toEqual([]);
    // Asked from a time after the deletion: nothing.
    expect((await deletedSince(bob.accessToken, new Date(Date.now() + 60_000).toISOString())).body.deleted).toEqual([]);
  });

  it('refuses a time it cannot read, and anyone not signed in', async () => {
    const bad = await deletedSince(bob.accessToken, 'вчера');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('since: ожидается время в ISO 8601');
    expect((await api.get('/api/messages/deleted')).status).toBe(401);
  });
});
