// «Экспорт данных» over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: the ZIP holds the profile,
// contacts, every conversation with its messages (authors, replies, reactions, attachments; deleted ones left out)
// and one's own uploads; only its owner reads its status or downloads it (bearer token or the signed link); a link
// that was tampered with or ran out, an export past its 24 hours and a build whose process died are refused or failed.
import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createExports, STALE_BUILD_MS } from '../../server/export/exports';
import { localDiskStorage } from '../../server/uploads/storage';
import { storagesFor } from '../../server/uploads/storage-for';
import { EXPORT } from '../../src/contract/limits';
import { client, startTestServer, type TestServer } from './harness';
import { manualClock } from './manual-clock';
import { type Api, befriend, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  alice = await api.user('alice');
  bob = await api.user('bob');
  await befriend(api, alice, bob);
});
afterAll(() => srv?.close());

type Status = {
  id: string;
  status: 'building' | 'ready' | 'failed';
  progress: number;
  size: number | null;
  downloadUrl: string | null;
  expiresAt: string;
};

/** Polls the status until the build is over (the build runs on the server's own time, not a timer of ours). */
function finished(token: string, id: string): Promise<Status> {
  return vi.waitFor(
    async () => {
      const res = await api.get(`/api/export/${id}`, token);
      expect(res.status).toBe(200);
      expect(res.body.export.status, 'the export never finished').not.toBe('building');
      return res.body.export as Status;
    },
    { timeout: 15_000, interval: 20 },
  );
}

async function upload(bytes: string, name: string, token: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'text/plain' }), name);
  const res = await fetch(`${srv.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { url: string };
}

const unzip = async (res: Response) => unzipSync(new Uint8Array(await res.arrayBuffer()));
const jsonOf = (files: Record<string, Uint8Array>, name: string) => JSON.parse(strFromU8(files[name]));

describe('«Экспорт данных»', () => {
  let conversationId: string;
  let ready: Status;

  it('builds a ZIP of the profile, contacts, conversations with their messages and one’s own uploads', async () => {
    conversationId = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body
      .conversation.id;
    const send = (token: string, body: object) =>
      api.post('/api/conversations/send', { conversationId, type: 'TEXT', ...body }, token);
    const question = (await send(bob.accessToken, { content: 'Привет! Когда встречаемся?' })).body.message;
    const answer = (await send(alice.accessToken, { content: 'В семь у метро', replyToId: question.id })).body.message;
    expect(
      (await api.post('/api/messages/react', { messageId: answer.id, emoji: '👍', on: true }, bob.accessToken)).status,
    ).toBe(200);
    const gone = (await send(alice.accessToken, { content: 'Это сообщение я удалю' })).body.message;
    expect((await api.post('/api/messages/delete', { messageId: gone.id }, alice.accessToken)).status).toBe(200);
    const mine = await upload('список покупок', 'покупки.txt', alice.accessToken);
    const theirs = await upload('чужой файл', 'bob.txt', bob.accessToken);
    await send(alice.accessToken, { type: 'FILE', content: '', attachments: [{ url: mine.url, type: 'FILE' }] });
    await send(bob.accessToken, { type: 'FILE', content: '', attachments: [{ url: theirs.url, type: 'FILE' }] });

    const started = await api.post('/api/export', undefined, alice.accessToken);
    expect(started.status).toBe(202);
    expect(started.body.export).toMatchObject({ status: 'building', downloadUrl: null, size: null });
    // Asking again while it is being built answers the same archive.
    const again = await api.post('/api/export', undefined, alice.accessToken);
    expect([again.body.export.id, again.body.export.status]).toEqual([started.body.export.id, 'building']);

    ready = await finished(alice.accessToken, started.body.export.id);
    expect(ready).toMatchObject({ status: 'ready', progress: 1 });
    expect(ready.size).toBeGreaterThan(0);
    expect(Date.parse(ready.expiresAt) - Date.now()).toBeGreaterThan(EXPORT.keepMs - 60_000);
    expect((await api.get('/api/export', alice.accessToken)).body.export.id).toBe(ready.id);

    const res = await fetch(`${srv.url}/api/export/${ready.id}/download`, {
      headers: { authorization: `Bearer ${alice.accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="beseda-export-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const files = await unzip(res);
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['README.txt', 'profile.json', 'contacts.json', 'conversations.json']),
    );
    expect(jsonOf(files, 'profile.json')).toMatchObject({ id: alice.user.id, username: alice.username });
    expect(jsonOf(files, 'profile.json')).not.toHaveProperty('passwordHash');
    expect(jsonOf(files, 'contacts.json')).toEqual([
      expect.objectContaining({ id: bob.user.id, eblid: bob.user.eblid, status: 'friend' }),
    ]);
    // «Избранное» is one's own data too, under its name.
    const [saved, ...index] = jsonOf(files, 'conversations.json');
    expect(saved).toEqual(expect.objectContaining({ title: 'Избранное', isGroup: false }));
    expect(saved.members.map((m: { id: string }) => m.id)).toEqual([alice.user.id]);
    expect(index).toEqual([
      expect.objectContaining({ id: conversationId, file: `conversations/${conversationId}.json`, isGroup: false }),
    ]);
    expect(index[0].members.map((m: { id: string }) => m.id).sort()).toEqual([alice.user.id, bob.user.id].sort());

    const { messages } = jsonOf(files, `conversations/${conversationId}.json`);
    expect(messages.map((m: { text: string }) => m.text)).toEqual([
      'Привет! Когда встречаемся?',
      'В семь у метро',
      '',
      '',
    ]);
    expect(messages[0].author).toEqual({ id: bob.user.id, name: bob.user.displayName });
    expect(messages[1]).toMatchObject({
      author: { id: alice.user.id, name: alice.user.displayName },
      replyTo: { id: question.id, content: 'Привет! Когда встречаемся?' },
      reactions: [{ emoji: '👍', users: [{ id: bob.user.id, name: bob.user.displayName }] }],
    });
    expect(JSON.stringify(messages)).not.toContain('Это сообщение я удалю');
    // Her own file is in the archive, named by the attachment; bob's is named only.
    const [own, other] = [messages[2].attachments[0], messages[3].attachments[0]];
    expect(own).toMatchObject({ name: 'покупки.txt', type: 'FILE' });
    expect(strFromU8(files[own.file])).toBe('список покупок');
    expect(other).toMatchObject({ name: 'bob.txt', file: null });
    expect(Object.keys(files).filter((f) => f.startsWith('uploads/'))).toEqual([own.file]);
  });

  it('is its owner’s alone: another user gets 404 for its status and its download', async () => {
    expect((await api.get(`/api/export/${ready.id}`, bob.accessToken)).status).toBe(404);
    expect((await api.get('/api/export', bob.accessToken)).body.export).toBeNull();
    const theirs = await fetch(`${srv.url}/api/export/${ready.id}/download`, {
      headers: { authorization: `Bearer ${bob.accessToken}` },
    });
    expect(theirs.status).toBe(404);
    expect((await theirs.json()).message).toBe('Архив не найден или уже удалён');
    expect((await fetch(`${srv.url}/api/export/${ready.id}/download`)).status).toBe(401);
    expect((await api.get('/api/export/../auth/sessions', alice.accessToken)).status).not.toBe(500);
    expect((await api.post('/api/export', undefined)).status).toBe(401);
  });

  it('downloads by its signed link without a token; a changed link or another export’s is refused', async () => {
    const link = ready.downloadUrl as string;
    expect(link).toMatch(new RegExp(`^/api/export/${ready.id}/download\\?token=\\d+\\.[\\w-]{36}\\.[\\w-]{43}$`));
    const byLink = await fetch(srv.url + link);
    expect(byLink.status).toBe(200);
    expect(Object.keys(await unzip(byLink))).toContain('profile.json');
    const tampered = link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await fetch(srv.url + tampered)).status).toBe(404);
    const later = link.replace(/token=(\d+)/, (_, exp) => `token=${Number(exp) + 1}`);
    expect((await fetch(srv.url + later)).status).toBe(404);
    const bobs = (await api.post('/api/export', undefined, bob.accessToken)).body.export;
    await finished(bob.accessToken, bobs.id);
    expect((await fetch(srv.url + link.replace(ready.id, bobs.id))).status).toBe(404);
  });

  it('answers 404 for an id that does not exist and a malformed one', async () => {
    expect((await api.get('/api/export/00000000-0000-4000-8000-000000000000', alice.accessToken)).status).toBe(404);
    const long = await api.get(`/api/export/${'x'.repeat(80)}`, alice.accessToken);
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/^id: /);
  });
});

/** A sign-in id for the links the export module makes outside a request. */
const SID = '00000000-0000-4000-8000-000000000001';

describe('an export’s time', () => {
  it('a link runs out, the archive is gone after 24 hours, and a build whose process stopped is failed', async () => {
    const clock = manualClock();
    const dir = path.join(srv.config.dataDir, 'exports-clocked');
    const storages = storagesFor(srv.config);
    onTestFinished(() => storages.close());
    const exports = createExports({
      db: srv.server.ctx.db,
      clock,
      uploads: storages.uploads,
      archives: localDiskStorage(dir),
      secret: new Uint8Array(32).fill(7),
      log: { warn: () => {} },
    });
    const first = await exports.start(alice.user.id, SID);
    await exports.idle();
    const row = await exports.find(alice.user.id, first.id);
    expect(row && exports.view(row, SID).status).toBe('ready');
    expect(fs.existsSync(path.join(dir, first.id))).toBe(true);
    const token = (exports.view(row as NonNullable<typeof row>, SID).downloadUrl as string).split('token=')[1];
    expect(exports.linkValid(first.id, token)).toBe(true);
    clock.advance(EXPORT.linkMs + 1);
    expect(exports.linkValid(first.id, token)).toBe(false);

    clock.advance(EXPORT.keepMs);
    expect(await exports.find(alice.user.id, first.id)).toBeNull();
    expect(await exports.sweep()).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(path.join(dir, first.id))).toBe(false);

    // A building row nobody moves (its process was killed) reads as failed; asking again starts a new archive.
    const now = new Date(clock.now()).toISOString();
    await srv.server.ctx.db
      .insertInto('exports')
      .values({
        id: 'stale-build',
        user_id: alice.user.id,
        status: 'building',
        progress: 0.4,
        size: null,
        created_at: now,
        updated_at: now,
        expires_at: new Date(clock.now() + EXPORT.keepMs).toISOString(),
      })
      .execute();
    const stale = await exports.find(alice.user.id, 'stale-build');
    expect(exports.view(stale as NonNullable<typeof stale>, SID).status).toBe('building');
    expect((await exports.start(alice.user.id, SID)).id).toBe('stale-build');
    clock.advance(STALE_BUILD_MS + 1);
    expect(
      exports.view((await exports.find(alice.user.id, 'stale-build')) as NonNullable<typeof stale>, SID).status,
    ).toBe('failed');
    const fresh = await exports.start(alice.user.id, SID);
    expect(fresh.id).not.toBe('stale-build');
    await exports.idle();
  });
});
