// A secret chat's encrypted uploads are tied to no message, so the retention job removes them on its own terms
// (server/admin/retention.ts, purgeSecretUploads): once their chat is gone (its last member left), whether or not
// retention is set; and with retentionDays set, a day after the cutoff. Anything newer, or still in a chat, stays.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, startTestServer, storedUploads, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { secretChat } from './secret-helpers';
import { type Api, befriend, type TestUser } from './socket-helpers';

const DAY = 24 * 60 * 60_000;
let srv: TestServer;
let api: Api;
let clock: ManualClock;
let anna: TestUser;
let boris: TestUser;

const db = () => srv.server.ctx.db;

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({}, { clock });
  api = client(srv.url);
  anna = await api.user('anna'); // the first account: an administrator
  boris = await api.user('boris');
  await befriend(api, anna, boris);
});
afterAll(() => srv.close());

const chatWithBoris = (title?: string) => secretChat(api, anna, [boris], title);

async function upload(conversationId: string): Promise<string> {
  const res = await fetch(`${srv.url}/api/secret/uploads?conversationId=${conversationId}`, {
    method: 'POST',
    body: randomBytes(300),
    headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${anna.accessToken}` },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { url: string }).url.split('/').pop() as string;
}

const rowOf = (key: string) =>
  db().selectFrom('uploads').select('id').where('storage_key', '=', key).executeTakeFirst();

it('removes the uploads of a chat that is gone, without retention set', async () => {
  const group = await chatWithBoris('Тайная группа');
  const kept = await chatWithBoris();
  const gone = await upload(group);
  const stays = await upload(kept);
  for (const who of [anna, boris])
    expect((await api.post('/api/conversations/leave', { conversationId: group }, who.accessToken)).status).toBe(200);
  expect(await rowOf(gone)).toMatchObject({ id: expect.any(String) });

  expect(await srv.server.app.retention.run()).toEqual({ messages: 0, uploads: 1 });
  expect(await rowOf(gone)).toBeUndefined();
  expect(await storedUploads(srv)).not.toContain(gone);
  expect(await storedUploads(srv)).toContain(stays);
  const res = await fetch(`${srv.url}/api/secret/uploads/${stays}`, {
    headers: { authorization: `Bearer ${boris.accessToken}` },
  });
  expect(res.status).toBe(200);
  // Nothing more to do: a second run removes nothing.
  expect(await srv.server.app.retention.run()).toEqual({ messages: 0, uploads: 0 });
});

it('with retention set, removes uploads older than the cutoff by a day, and keeps newer ones', async () => {
  const chat = await chatWithBoris();
  const [old, edge, fresh] = [await upload(chat), await upload(chat), await upload(chat)];
  const age = (key: string, days: number) =>
    db()
      .updateTable('uploads')
      .set({ created_at: new Date(clock.now() - days * DAY).toISOString() })
      .where('storage_key', '=', key)
      .execute();
  await age(old, 32);
  // Past the cutoff, but within the day's margin: its message may be younger than the cutoff.
  await age(edge, 30.5);
  await age(fresh, 3);
  expect((await api.patch('/api/admin/settings', { retentionDays: 30 }, anna.accessToken)).status).toBe(200);

  expect(await srv.server.app.retention.run()).toMatchObject({ uploads: 1 });
  const stored = await storedUploads(srv);
  expect(stored).not.toContain(old);
  expect(stored).toContain(edge);
  expect(stored).toContain(fresh);
  expect(await rowOf(old)).toBeUndefined();
  expect(await rowOf(fresh)).toBeDefined();
});
