// History import (docs/behaviour.md §10.38) against the real server, on SQLite and (TEST_PG_URL) PostgreSQL: a
// Telegram export with a photo, a voice message, a reply and an edit goes into a group through upload → analysis →
// mapping → background run; its messages keep their time and order before the chat's own, behind a divider, are
// never unread and are found by the Russian morphology search at once. The same export again adds nothing; a cancel
// leaves nothing; a stopped server's job resumes after its last batch, and a dead process's job after its lease.
// Who may import where; hostile exports refused in Russian; a secret chat's encrypted batches.
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { IMPORT_TIMINGS } from '../../server/imports/import-runner';
import { importRunnerOf } from '../../server/imports/imports.plugin';
import { JPEG, OGG, telegramChat, tg, zipOf } from '../../src/contract/history-import/test-fixtures';
import { client, startTestServer, type TestServer } from './harness';
import { manualClock } from './manual-clock';
import { opaque, secretChat } from './secret-helpers';
import { type Api, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

type Job = {
  id: string;
  status: string;
  authors: { key: string; name: string; suggestedUserId: string | null }[];
  total: number;
  done: number;
  imported: number;
  conversationId: string | null;
  error: string | null;
};

async function upload(srv: TestServer, token: string, body: Uint8Array, conversationId?: string) {
  const res = await fetch(`${srv.url}/api/imports${conversationId ? `?conversationId=${conversationId}` : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
    body: Buffer.from(body),
  });
  return { status: res.status, body: (await res.json()) as { job: Job; message?: string } & { message: string } };
}

/** Waits for the job's event in `status` (the importer's socket hears every change). */
async function until(srv: TestServer, u: TestUser, id: string, status: string, ms = 20_000): Promise<Job> {
  const socket = await connect(srv.url, u.accessToken);
  try {
    const current = (await client(srv.url).get(`/api/imports/${id}`, u.accessToken)).body.job as Job;
    if (current.status === status) return current;
    return (await next<{ job: Job }>(socket, 'import:updated', (p) => p.job.id === id && p.job.status === status, ms))
      .job;
  } finally {
    socket.disconnect();
  }
}

async function history(api: Api, u: TestUser, conversationId: string) {
  const r = await api.get(`/api/conversations/${conversationId}/messages?limit=100`, u.accessToken);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.messages as {
    id: string;
    type: string;
    content: string;
    senderId: string;
    createdAt: string;
    editedAt: string | null;
    replyTo: { id: string } | null;
    attachments: { type: string; url: string }[];
    importedAuthor?: string;
    importedFrom?: string;
    system?: { kind: string; imported?: { count: number } };
    entities?: { type: string; offset: number; length: number }[];
  }[];
}

async function photo(): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: 8, height: 6, channels: 3, background: '#c33' } })
      .jpeg()
      .toBuffer(),
  );
}

async function telegramExport(): Promise<Uint8Array> {
  const messages = [
    tg(1, '2024-03-12T14:05:33', {
      from: 'Анна',
      from_id: 'user1',
      text: ['Смотри, какая ', { type: 'bold', text: 'собака' }, '!'],
    }),
    tg(2, '2024-03-12T14:06:00', {
      from: 'Ольга',
      from_id: 'user2',
      photo: 'photos/photo_1@12-03-2024_14-06-00.jpg',
      width: 8,
      height: 6,
      text: 'вот она',
    }),
    tg(3, '2024-03-12T14:07:00', {
      from: 'Анна',
      from_id: 'user1',
      text: 'Милая',
      reply_to_message_id: 2,
      edited: '2024-03-12T14:08:00',
      edited_unixtime: String(Date.UTC(2024, 2, 12, 14, 8) / 1000),
    }),
    tg(4, '2024-03-12T14:09:00', {
      from: 'Ольга',
      from_id: 'user2',
      file: 'voice_messages/audio_1@12-03-2024_14-09-00.ogg',
      media_type: 'voice_message',
      mime_type: 'audio/ogg',
      duration_seconds: 3,
      text: '',
    }),
    tg(5, '2024-03-12T14:10:00', {
      from: 'Ольга',
      from_id: 'user2',
      file: 'stickers/sticker.webp',
      media_type: 'sticker',
      sticker_emoji: '🐶',
      text: [{ type: 'italic', text: 'гав' }],
    }),
  ];
  return zipOf({
    'result.json': telegramChat(messages, 'Друзья'),
    'photos/photo_1@12-03-2024_14-06-00.jpg': await photo(),
    'voice_messages/audio_1@12-03-2024_14-09-00.ogg': OGG,
    'stickers/sticker.webp': JPEG,
  });
}

/** A plain export of `n` text messages. */
const bigExport = (n: number, name = 'Большой чат') =>
  zipOf({
    'result.json': telegramChat(
      Array.from({ length: n }, (_, i) =>
        tg(
          i + 1,
          `2023-01-01T${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
          {
            from: i % 2 ? 'Анна' : 'Борис',
            from_id: i % 2 ? 'user1' : 'user2',
            text: `сообщение номер ${i + 1}`,
          },
        ),
      ),
      name,
    ),
  });

/** The job's imported messages still waiting in the search index's backlog (read straight from the database). */
async function waitingForIndex(srv: TestServer, jobId: string): Promise<number> {
  const r = await sql<{ n: number | string }>`SELECT count(*) AS n FROM messages m
    JOIN message_search_backlog b ON b.seq = m.seq
    WHERE m.import_job_id = ${jobId} AND m.import_key IS NOT NULL`.execute(srv.server.ctx.db);
  return Number(r.rows[0]?.n);
}

describe('history import', () => {
  let srv: TestServer;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let group: string;

  beforeAll(async () => {
    srv = await startTestServer({ accessTokenTtlSec: 24 * 3600 });
    api = client(srv.url);
    [alice, bob, carol] = await Promise.all([api.user('alice'), api.user('bob'), api.user('carol')]);
    await befriend(api, alice, bob);
    await befriend(api, alice, carol);
    const g = await api.post(
      '/api/conversations',
      { participantIds: [bob.user.id, carol.user.id], title: 'Семья' },
      alice.accessToken,
    );
    expect(g.status, JSON.stringify(g.body)).toBeLessThan(300);
    group = g.body.conversation.id;
    await api.post(
      '/api/conversations/send',
      { conversationId: group, type: 'TEXT', content: 'своё' },
      bob.accessToken,
    );
  });
  afterAll(async () => {
    closeAll();
    await srv?.close();
  });

  it('imports a Telegram export into a group: mapping, order, divider, kinds, unread and search', async () => {
    const up = await upload(srv, alice.accessToken, await telegramExport(), group);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.job.status).toBe('analysing');
    const mapping = await until(srv, alice, up.body.job.id, 'mapping');
    expect(mapping.total).toBe(5);
    expect(mapping.authors.map((a) => a.name).sort()).toEqual(['Анна', 'Ольга']);
    const listBefore = (await api.get('/api/conversations', bob.accessToken)).body.conversations as {
      conversation: { id: string };
      unreadCount: number;
    }[];
    const started = await api.post(
      `/api/imports/${up.body.job.id}/start`,
      { mapping: { user1: bob.user.id, user2: null } },
      alice.accessToken,
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.job.status).toBe('running');
    const done = await until(srv, alice, up.body.job.id, 'done');
    expect(done.imported).toBe(5);
    // Indexed in the batch's own commit: none of its messages waits in the search backlog.
    expect(await waitingForIndex(srv, up.body.job.id)).toBe(0);

    const all = await history(api, bob, group);
    const imported = all.filter((m) => m.importedFrom === 'telegram');
    // Imported first, in the export's order, with the divider right after them and the chat's own messages later.
    const own = all.findIndex((m) => m.content === 'своё');
    const divider = all.findIndex((m) => m.system?.kind === 'imported');
    expect(divider).toBe(own - 1 > divider ? divider : own - 1);
    expect(divider).toBeLessThan(own);
    expect(all[divider]?.content).toBe('Импортировано из Telegram · 5 сообщений');
    expect(all[divider]?.system?.imported?.count).toBe(5);
    const body = imported.filter((m) => m.system?.kind !== 'imported');
    expect(body.map((m) => m.createdAt)).toEqual([...body.map((m) => m.createdAt)].sort());
    expect(body[0]?.content).toBe('Смотри, какая собака!');
    // The export's formatting is kept as ranges over the plain text, moved past a line put before a caption.
    expect(body[0]?.entities).toEqual([{ type: 'bold', offset: 14, length: 6 }]);
    expect(body[0]?.senderId).toBe(bob.user.id);
    expect(body[0]?.importedAuthor).toBeUndefined();
    expect(body[0]?.createdAt).toBe('2024-03-12T14:05:33.000Z');
    const pic = body[1];
    expect(pic?.type).toBe('IMAGE');
    expect(pic?.senderId).toBe(alice.user.id);
    expect(pic?.importedAuthor).toBe('Ольга');
    expect(pic?.attachments[0]?.type).toBe('IMAGE');
    const served = await fetch(`${srv.url}${pic?.attachments[0]?.url}`);
    expect(served.status).toBe(200);
    expect(body[2]?.replyTo?.id).toBe(pic?.id);
    expect(body[2]?.editedAt).toBe('2024-03-12T14:08:00.000Z');
    expect(body[3]?.type).toBe('VOICE');
    expect(body[3]?.attachments).toHaveLength(1);
    expect(body[4]?.type).toBe('TEXT');
    expect(body[4]?.content).toContain('Стикер');
    const sticker = body[4]?.content ?? '';
    expect(sticker.endsWith('\nгав')).toBe(true);
    expect(body[4]?.entities).toEqual([{ type: 'italic', offset: sticker.length - 3, length: 3 }]);

    // Nothing of it is unread, and the chat kept its place in the list.
    const listAfter = (await api.get('/api/conversations', bob.accessToken)).body.conversations as typeof listBefore;
    expect(listAfter.map((c) => c.conversation.id)).toEqual(listBefore.map((c) => c.conversation.id));
    expect(listAfter.find((c) => c.conversation.id === group)?.unreadCount).toBe(
      listBefore.find((c) => c.conversation.id === group)?.unreadCount,
    );

    // Searchable at once, in another form of the word.
    const found = await api.get(`/api/search?q=${encodeURIComponent('собаку')}`, carol.accessToken);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.results.map((r: { message: { content: string } }) => r.message.content)).toContain(
      'Смотри, какая собака!',
    );
    // With the group's filter too: the import indexes its chat (and sender and kind) as the app's own sends do.
    const inGroup = await api.get(
      `/api/search?q=${encodeURIComponent('собаку')}&conversationId=${group}`,
      carol.accessToken,
    );
    expect(inGroup.body.results.map((r: { message: { content: string } }) => r.message.content)).toContain(
      'Смотри, какая собака!',
    );
    // And by its day, written in 2024 with a seq of today: the import notes its days as the drain does.
    const onItsDay = async (since: string, until: string) =>
      (
        await api.get(`/api/search?q=${encodeURIComponent('собаку')}&since=${since}&until=${until}`, carol.accessToken)
      ).body.results.map((r: { message: { content: string } }) => r.message.content);
    expect(await onItsDay('2024-03-12', '2024-03-12')).toEqual(['Смотри, какая собака!']);
    expect(await onItsDay('2024-03-13', '2024-03-20')).toEqual([]);
  });

  it('importing the same export again adds nothing', async () => {
    const before = (await history(api, bob, group)).length;
    const up = await upload(srv, alice.accessToken, await telegramExport(), group);
    await until(srv, alice, up.body.job.id, 'mapping');
    await api.post(`/api/imports/${up.body.job.id}/start`, { mapping: { user1: bob.user.id } }, alice.accessToken);
    const done = await until(srv, alice, up.body.job.id, 'done');
    expect(done.imported).toBe(0);
    expect(done.done).toBe(5);
    expect((await history(api, bob, group)).length).toBe(before);
  });

  it('into a new group: the importer owns it, matched friends are in it', async () => {
    const up = await upload(srv, alice.accessToken, bigExport(3, 'Старый чат'));
    const mapping = await until(srv, alice, up.body.job.id, 'mapping');
    expect(mapping.conversationId).toBeNull();
    const bad = await api.post(
      `/api/imports/${up.body.job.id}/start`,
      { mapping: { user1: 'not-a-friend-id' } },
      alice.accessToken,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/только друзей/);
    await api.post(`/api/imports/${up.body.job.id}/start`, { mapping: { user1: carol.user.id } }, alice.accessToken);
    const done = await until(srv, alice, up.body.job.id, 'done');
    expect(done.conversationId).toBeTruthy();
    const list = (await api.get('/api/conversations', carol.accessToken)).body.conversations as {
      conversation: { id: string; title: string };
    }[];
    expect(list.find((c) => c.conversation.id === done.conversationId)?.conversation.title).toBe('Старый чат');
    const msgs = await history(api, carol, done.conversationId as string);
    expect(msgs.filter((m) => m.importedFrom).length).toBe(4);
  });

  it('who may import where: 404 for outsiders and others’ jobs, 403 for a plain member of a group', async () => {
    const outsider = await api.user('dave');
    const zip = bigExport(2);
    expect((await upload(srv, outsider.accessToken, zip, group)).status).toBe(404);
    const member = await upload(srv, carol.accessToken, zip, group);
    expect(member.status).toBe(403);
    expect(member.body.message).toBe('Импортировать историю в группу могут только владелец и администраторы');
    const mine = await upload(srv, alice.accessToken, zip, group);
    expect((await api.get(`/api/imports/${mine.body.job.id}`, bob.accessToken)).status).toBe(404);
    expect((await api.post(`/api/imports/${mine.body.job.id}/cancel`, {}, bob.accessToken)).status).toBe(404);
    expect((await api.get(`/api/imports/${mine.body.job.id}`)).status).toBe(401);
    // Either person of a direct chat may.
    const direct = (await api.post('/api/conversations/with', { userId: alice.user.id }, bob.accessToken)).body
      .conversation.id;
    expect((await upload(srv, bob.accessToken, zip, direct)).status).toBe(201);
  });

  it('hostile exports: 400 in Russian and nothing imported', async () => {
    const before = (await history(api, bob, group)).length;
    const notZip = await upload(srv, alice.accessToken, new TextEncoder().encode('это не архив'), group);
    expect(notZip.status).toBe(400);
    expect(notZip.body.message).toMatch(/[а-я]/);
    const traversal = zipOf({ 'result.json': telegramChat([]), '../../etc/passwd': 'x' });
    const t = await upload(srv, alice.accessToken, traversal, group);
    expect(t.status).toBe(400);
    expect(t.body.message).toMatch(/[а-я]/);
    const bomb = zipOf({ 'result.json': telegramChat([]), 'files/zeros.bin': new Uint8Array(50 * 1024 * 1024) });
    const b = await upload(srv, alice.accessToken, bomb, group);
    expect(b.status).toBe(400);
    expect(b.body.message).toMatch(/[а-я]/);
    // Found out while analysing: the job fails with the reason, and nothing is stored.
    const future = zipOf({
      'result.json': telegramChat([
        tg(1, '2099-01-01T00:00:00', { from: 'Анна', from_id: 'user1', text: 'из будущего' }),
      ]),
    });
    const f = await upload(srv, alice.accessToken, future, group);
    expect(f.status).toBe(201);
    const failed = await until(srv, alice, f.body.job.id, 'failed');
    expect(failed.error).toMatch(/будущ/);
    const deep = zipOf({ 'result.json': `{"messages":${'['.repeat(10_000)}${']'.repeat(10_000)}}` });
    const d = await upload(srv, alice.accessToken, deep, group);
    if (d.status === 201) expect((await until(srv, alice, d.body.job.id, 'failed')).error).toMatch(/[а-я]/);
    else expect(d.status).toBe(400);
    expect((await history(api, bob, group)).length).toBe(before);
    const noType = await fetch(`${srv.url}/api/imports?conversationId=${group}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.accessToken}`, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(noType.status).toBe(415);
  });

  it('sends in another chat while an import runs are all answered; the import ends whole and indexed', async () => {
    const saved = { ...IMPORT_TIMINGS };
    IMPORT_TIMINGS.batch = 50;
    IMPORT_TIMINGS.commitSize = 7;
    onTestFinished(() => {
      Object.assign(IMPORT_TIMINGS, saved);
    });
    const direct = (await api.post('/api/conversations/with', { userId: carol.user.id }, alice.accessToken)).body
      .conversation.id as string;
    const up = await upload(srv, alice.accessToken, bigExport(1_500, 'Пока пишут'), group);
    await until(srv, alice, up.body.job.id, 'mapping');
    await api.post(`/api/imports/${up.body.job.id}/start`, { mapping: {} }, alice.accessToken);
    const ended = until(srv, alice, up.body.job.id, 'done', 60_000);
    let running = true;
    void ended.finally(() => {
      running = false;
    });
    const statuses: number[] = [];
    // Three senders back to back, as long as the import runs (and at least a few each).
    await Promise.all(
      [alice, carol, alice].map(async (u, k) => {
        for (let i = 0; running || i < 5; i++) {
          const r = await api.post(
            '/api/conversations/send',
            { conversationId: direct, type: 'TEXT', content: `пока идёт импорт ${k}-${i}` },
            u.accessToken,
          );
          statuses.push(r.status);
        }
      }),
    );
    const done = await ended;
    expect(done.imported).toBe(1_500);
    expect(statuses.length).toBeGreaterThanOrEqual(15);
    expect(statuses.filter((x) => x !== 200)).toEqual([]);
    expect(await waitingForIndex(srv, up.body.job.id)).toBe(0);
    const found = await api.get(`/api/search?q=${encodeURIComponent('номером 1500')}`, bob.accessToken);
    expect(found.body.results.map((r: { message: { content: string } }) => r.message.content)).toContain(
      'сообщение номер 1500',
    );
  });

  it('cancel removes what the import stored', async () => {
    const batch = IMPORT_TIMINGS.batch;
    IMPORT_TIMINGS.batch = 50;
    onTestFinished(() => {
      IMPORT_TIMINGS.batch = batch;
    });
    const before = (await history(api, bob, group)).length;
    const up = await upload(srv, alice.accessToken, bigExport(20_000), group);
    await until(srv, alice, up.body.job.id, 'mapping');
    const socket = await connect(srv.url, alice.accessToken);
    const progressed = next<{ job: Job }>(
      socket,
      'import:updated',
      (p) => p.job.id === up.body.job.id && p.job.done > 0,
      20_000,
    );
    await api.post(`/api/imports/${up.body.job.id}/start`, { mapping: {} }, alice.accessToken);
    await progressed.catch(() => null);
    const cancelled = await api.post(`/api/imports/${up.body.job.id}/cancel`, {}, alice.accessToken);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.job.status).toBe('cancelled');
    await importRunnerOf(srv.server.ctx.db)?.idle();
    expect((await history(api, bob, group)).length).toBe(before);
    expect((await api.post(`/api/imports/${up.body.job.id}/cancel`, {}, alice.accessToken)).status).toBe(409);
  });

  it('a secret chat takes encrypted batches: members only, idempotent, stored ENCRYPTED', async () => {
    const secret = await secretChat(api, alice, [bob]);
    const batch = (from: number, n: number) => ({
      conversationId: secret,
      importKey: 'a1b2c3d4e5f6a7b8c9d0',
      source: 'whatsapp',
      total: 4,
      messages: Array.from({ length: n }, (_, i) => ({
        sourceId: String(from + i),
        index: from + i,
        createdAt: new Date(Date.UTC(2023, 0, 1, 10, from + i)).toISOString(),
        content: opaque(64),
        clientMessageId: `imp-${from + i}`,
      })),
    });
    // The route that reads an export on the server refuses a secret chat.
    const upload400 = await upload(srv, alice.accessToken, bigExport(1), secret);
    expect(upload400.status).toBe(400);
    expect(upload400.body.message).toMatch(/шифруются на устройстве/);
    const first = await api.post('/api/imports/secret-batch', batch(0, 2), alice.accessToken);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ stored: 2, skipped: 0 });
    const again = await api.post('/api/imports/secret-batch', batch(0, 3), alice.accessToken);
    expect(again.body).toMatchObject({ stored: 1, skipped: 2 });
    // Every message of the batch is named with its id, those stored by the first try too: the importer's device keeps
    // its own plaintexts under them.
    const named = again.body.messages as { clientMessageId: string; id: string; createdAt: string }[];
    expect(named.map((m) => m.clientMessageId)).toEqual(['imp-0', 'imp-1', 'imp-2']);
    expect(named.slice(0, 2).map((m) => m.id)).toEqual((first.body.messages as { id: string }[]).map((m) => m.id));
    expect(named[2]?.createdAt).toBe(new Date(Date.UTC(2023, 0, 1, 10, 2)).toISOString());
    expect((await api.post('/api/imports/secret-batch', batch(0, 1), carol.accessToken)).status).toBe(404);
    expect(
      (await api.post('/api/imports/secret-batch', { ...batch(0, 1), conversationId: group }, alice.accessToken))
        .status,
    ).toBe(400);
    const msgs = await history(api, bob, secret);
    const imported = msgs.filter((m) => m.importedFrom === 'whatsapp');
    expect(imported).toHaveLength(3);
    expect(imported.every((m) => m.type === 'ENCRYPTED')).toBe(true);
    // Before everything the chat had of its own.
    expect(msgs.findIndex((m) => m.importedFrom)).toBe(0);
  });
});

describe('history import across a restart', () => {
  let holder: TestServer;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let direct: string;
  const batch = IMPORT_TIMINGS.batch;

  beforeAll(async () => {
    holder = await startTestServer({ accessTokenTtlSec: 24 * 3600 });
    api = client(holder.url);
    [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
    await befriend(api, alice, bob);
    direct = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation
      .id;
    IMPORT_TIMINGS.batch = 50;
  });
  afterAll(async () => {
    IMPORT_TIMINGS.batch = batch;
    closeAll();
    await holder?.close();
  });

  it('resumes after the last committed batch, and takes over a dead process’s job after its lease', {
    timeout: 180_000,
  }, async () => {
    const start = Date.now();
    const one = await startTestServer({
      accessTokenTtlSec: 24 * 3600,
      dataDir: holder.config.dataDir,
      databaseUrl: holder.config.databaseUrl,
    });
    const up = await upload(one, alice.accessToken, bigExport(20_000), direct);
    await until(one, alice, up.body.job.id, 'mapping');
    const socket = await connect(one.url, alice.accessToken);
    const progressed = next<{ job: Job }>(socket, 'import:updated', (p) => p.job.done >= 100, 20_000);
    await client(one.url).post(`/api/imports/${up.body.job.id}/start`, { mapping: {} }, alice.accessToken);
    await progressed;
    // The process goes away mid-job (its export stays on the shared disk); one that died holds its lease.
    await one.server.close();
    const db = holder.server.ctx.db;
    const mid = await db
      .selectFrom('import_jobs')
      .selectAll()
      .where('id', '=', up.body.job.id)
      .executeTakeFirstOrThrow();
    expect(mid.status).toBe('running');
    expect(Number(mid.done)).toBeLessThan(20_000);
    expect(Number(mid.done) % 50).toBe(0);
    await db
      .updateTable('import_jobs')
      .set({ claimed_at: new Date(start).toISOString() })
      .where('id', '=', up.body.job.id)
      .execute();
    const clock = manualClock(start);
    const two = await startTestServer(
      { accessTokenTtlSec: 24 * 3600, dataDir: holder.config.dataDir, databaseUrl: holder.config.databaseUrl },
      { clock },
    );
    try {
      await importRunnerOf(two.server.ctx.db)?.idle();
      const held = await db
        .selectFrom('import_jobs')
        .select('done')
        .where('id', '=', up.body.job.id)
        .executeTakeFirstOrThrow();
      expect(Number(held.done)).toBe(Number(mid.done));
      // Within the lease it stays where the dead process left it; past it, the next look takes it over.
      clock.advance(IMPORT_TIMINGS.leaseMs - 1);
      await importRunnerOf(two.server.ctx.db)?.idle();
      expect(
        Number(
          (await db.selectFrom('import_jobs').select('done').where('id', '=', up.body.job.id).executeTakeFirstOrThrow())
            .done,
        ),
      ).toBe(Number(mid.done));
      clock.advance(IMPORT_TIMINGS.pollMs);
      const done = await until(two, alice, up.body.job.id, 'done', 120_000);
      expect(done.done).toBe(20_000);
      expect(done.imported).toBe(20_000);
      const count = await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('import_job_id', '=', up.body.job.id)
        .executeTakeFirstOrThrow();
      // Every message once, and the divider.
      expect(Number(count.n)).toBe(20_001);
    } finally {
      await two.server.close();
    }
  });
});
