// «Хранить сообщения»: with retentionDays set, the job deletes messages older than that and the uploads only they
// used; newer messages and shared uploads stay; nothing happens while it is unset. Time is the server's clock.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_EVERY_MS, RETENTION_FIRST_RUN_MS } from '../../server/admin/retention';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { type Api, befriend, type TestUser } from './socket-helpers';

const DAY = 24 * 60 * 60_000;
let srv: TestServer;
let api: Api;
let clock: ManualClock;
let alice: TestUser;
let bob: TestUser;
let conversationId: string;

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({}, { clock });
  api = client(srv.url);
  alice = await api.user('alice'); // the first account: an administrator
  bob = await api.user('bob');
  await befriend(api, alice, bob);
  conversationId = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body
    .conversation.id;
});
afterAll(() => srv.close());

async function upload(name: string) {
  const form = new FormData();
  form.append('file', new Blob([`bytes of ${name}`], { type: 'text/plain' }), name);
  const res = await fetch(`${srv.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${alice.accessToken}` },
  });
  expect(res.status).toBe(201);
  return (await res.json()).url as string;
}

async function send(body: Record<string, unknown>) {
  const res = await api.post('/api/conversations/send', { conversationId, type: 'TEXT', ...body }, alice.accessToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message.id as string;
}

/** Moving the clock past the access tokens' lifetime: sign in again. */
async function signInAgain() {
  for (const u of [alice, bob]) {
    const res = await api.post('/api/auth/login', { username: u.username, password: u.password });
    u.accessToken = res.body.accessToken;
  }
}

const db = () => srv.server.ctx.db;
const ageBy = (ids: string[], days: number) =>
  db()
    .updateTable('messages')
    .set({ created_at: new Date(clock.now() - days * DAY).toISOString() })
    .where('id', 'in', ids)
    .execute();
const history = async () =>
  (
    (await api.get(`/api/conversations/${conversationId}/messages`, bob.accessToken)).body.messages as { id: string }[]
  ).map((m) => m.id);
const storedFile = (url: string) => path.join(srv.config.dataDir, 'uploads', path.basename(url));

describe('retention', () => {
  let oldText: string;
  let oldFile: string;
  let oldShared: string;
  let fresh: string;
  let freshCopy: string;
  let onlyOld: string;
  let shared: string;

  beforeAll(async () => {
    onlyOld = await upload('old.txt');
    shared = await upload('shared.txt');
    oldText = await send({ content: 'старое' });
    oldFile = await send({ type: 'FILE', content: '', attachments: [{ url: onlyOld, type: 'FILE' }] });
    oldShared = await send({ type: 'FILE', content: '', attachments: [{ url: shared, type: 'FILE' }] });
    expect(
      (await api.post('/api/messages/react', { messageId: oldText, emoji: '👍', on: true }, bob.accessToken)).status,
    ).toBe(200);
    // A forwarded copy shares its original's upload.
    const fwd = await api.post(
      '/api/messages/forward',
      { messageIds: [oldShared], conversationIds: [conversationId] },
      alice.accessToken,
    );
    expect(fwd.status).toBe(200);
    freshCopy = fwd.body.messages[0].id;
    fresh = await send({ content: 'новое', replyToId: oldText });
    await ageBy([oldText, oldFile, oldShared], 40);
    await ageBy([fresh, freshCopy], 10);
  });

  it('does nothing while retentionDays is unset', async () => {
    expect(await srv.server.app.retention.run()).toEqual({ messages: 0, uploads: 0 });
    clock.advance(RETENTION_FIRST_RUN_MS);
    await srv.server.app.retention.idle();
    expect(await history()).toEqual([oldText, oldFile, oldShared, freshCopy, fresh]);
  });

  it('deletes older messages and the uploads only they used, on its hourly run', async () => {
    const set = await api.patch('/api/admin/settings', { retentionDays: 30 }, alice.accessToken);
    expect(set.status).toBe(200);
    expect(fs.existsSync(storedFile(onlyOld))).toBe(true);
    clock.advance(RETENTION_EVERY_MS);
    await srv.server.app.retention.idle();
    await signInAgain();

    expect(await history()).toEqual([freshCopy, fresh]);
    const rows = await db().selectFrom('messages').select('id').where('conversation_id', '=', conversationId).execute();
    expect(rows.map((r) => r.id).sort()).toEqual([fresh, freshCopy].sort());
    // What hung on them went with them.
    expect(await db().selectFrom('reactions').selectAll().where('message_id', '=', oldText).execute()).toEqual([]);
    expect(
      await db()
        .selectFrom('message_attachments')
        .selectAll()
        .where('message_id', 'in', [oldFile, oldShared])
        .execute(),
    ).toEqual([]);
    // The upload only the old message used is gone (row and bytes); the one a newer copy uses stays.
    expect(fs.existsSync(storedFile(onlyOld))).toBe(false);
    expect((await fetch(srv.url + onlyOld)).status).toBe(404);
    expect(fs.existsSync(storedFile(shared))).toBe(true);
    expect((await fetch(srv.url + shared)).status).toBe(200);
    // The reply to a purged message shows no quote; search no longer finds it.
    const kept = (await api.get(`/api/conversations/${conversationId}/messages`, bob.accessToken)).body.messages;
    expect(kept.find((m: { id: string }) => m.id === fresh).replyTo).toBeNull();
    expect((await api.get('/api/search?q=старое', alice.accessToken)).body.results).toEqual([]);
    // The conversation list shows the newest remaining message.
    const list = await api.get('/api/conversations', alice.accessToken);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(oldText);
  });

  it('keeps messages newer than the limit, and a second run finds nothing', async () => {
    expect(await srv.server.app.retention.run()).toEqual({ messages: 0, uploads: 0 });
    await api.patch('/api/admin/settings', { retentionDays: 5 }, alice.accessToken);
    expect(await srv.server.app.retention.run()).toEqual({ messages: 2, uploads: 1 });
    expect(await history()).toEqual([]);
    expect(fs.existsSync(storedFile(shared))).toBe(false);
  });
});
