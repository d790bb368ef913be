// «Медиа», «Файлы», «Ссылки», «Голосовые» of «Информация» (GET /api/conversations/:id/media,
// server/messages/chat-media.ts) over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: each kind,
// newest first and paged; only what the member reads in the history (not deleted for everyone, not hidden by them,
// not from before their history starts); a removed member refused at once; bad parameters refused in Russian; and
// each kind read from its partial index (EXPLAIN at 20 000 messages).
import fs from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { chatMediaQuery } from '../../server/messages/chat-media';
import { CHAT_MEDIA_KINDS } from '../../src/contract/chat-media';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

const voiceFile = fs.readFileSync(path.join(__dirname, '../fixtures/voice-2s.webm'));
const waveform = Array.from({ length: 60 }, (_, i) => (i * 7) % 101);

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let gleb: TestUser;

type Item = { message: { id: string; type: string; content: string }; links: string[] };

async function upload(user: TestUser, bytes: Buffer, name: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${srv.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${user.accessToken}` },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { url: string }).url;
}

async function send(user: TestUser, conversationId: string, body: Record<string, unknown>) {
  const res = await api.post('/api/conversations/send', { conversationId, type: 'TEXT', ...body }, user.accessToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message.id as string;
}
const text = (u: TestUser, c: string, content: string) => send(u, c, { content });
const photo = async (u: TestUser, c: string, content: string) => {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#345678' } })
    .png()
    .toBuffer();
  return send(u, c, {
    type: 'IMAGE',
    content,
    attachments: [{ url: await upload(u, png, 'фото.png', 'image/png'), type: 'IMAGE' }],
  });
};
const file = async (u: TestUser, c: string, content: string) =>
  send(u, c, {
    type: 'FILE',
    content,
    attachments: [{ url: await upload(u, Buffer.from('спальник, котелок'), 'список.txt', 'text/plain'), type: 'FILE' }],
  });
const voice = async (u: TestUser, c: string) =>
  send(u, c, {
    type: 'VOICE',
    content: '',
    attachments: [{ url: await upload(u, voiceFile, 'voice.webm', 'audio/webm'), type: 'AUDIO' }],
    voice: { durationMs: 2000, waveform },
  });

const media = (u: TestUser, c: string, query: string) =>
  api.get(`/api/conversations/${c}/media?${query}`, u.accessToken);
async function items(u: TestUser, c: string, query: string): Promise<Item[]> {
  const res = await media(u, c, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items;
}
const ids = (list: Item[]) => list.map((i) => i.message.id);

async function group(owner: TestUser, members: TestUser[]) {
  const res = await api.post(
    '/api/conversations',
    { participantIds: members.map((m) => m.user.id), isGroup: true, title: 'Поход' },
    owner.accessToken,
  );
  expect(res.status).toBe(200);
  return res.body.conversation.id as string;
}

beforeAll(async () => {
  srv = await startTestServer({ uploadLimitBytes: 8 * 1024 * 1024 });
  api = client(srv.url);
  [anna, boris, gleb] = await Promise.all([api.user('anna'), api.user('boris'), api.user('gleb')]);
  await befriend(api, anna, boris);
  await befriend(api, anna, gleb);
});
afterAll(() => srv?.close());

describe('each tab', () => {
  it('gives photos, files, links and voice messages, newest first, each only in its tab', async () => {
    const c = await group(anna, [boris]);
    const p1 = await photo(anna, c, 'старое фото');
    const f1 = await file(boris, c, 'список');
    const l1 = await text(
      anna,
      c,
      'карта: https://example.org/map и http://example.com/a?b=1 ещё раз https://example.org/map',
    );
    await text(boris, c, 'без ссылок, только example.org и «https://» без адреса https://');
    const v1 = await voice(boris, c);
    const p2 = await photo(boris, c, 'фото со ссылкой https://example.net/');
    expect(ids(await items(anna, c, 'kind=media'))).toEqual([p2, p1]);
    expect(ids(await items(anna, c, 'kind=files'))).toEqual([f1]);
    expect(ids(await items(anna, c, 'kind=voice'))).toEqual([v1]);
    const links = await items(boris, c, 'kind=links');
    expect(ids(links)).toEqual([p2, l1]);
    expect(links[1]?.links).toEqual(['https://example.org/map', 'http://example.com/a?b=1']);
    expect(links[0]?.links).toEqual(['https://example.net/']);
    const [shown] = await items(anna, c, 'kind=media&limit=1');
    expect(shown?.message).toMatchObject({ type: 'IMAGE', attachments: [{ type: 'IMAGE', name: 'фото.png' }] });
    expect((await items(anna, c, 'kind=media')).every((i) => i.links.length === 0)).toBe(true);
  });

  it('pages newest first with the cursor it hands out, to the end', async () => {
    const c = await group(anna, [boris]);
    const sent: string[] = [];
    for (let i = 0; i < 7; i++) sent.push(await text(anna, c, `ссылка ${i}: https://example.org/${i}`));
    await text(anna, c, 'https:// и ничего');
    const newest = [...sent].reverse();
    const seen: string[] = [];
    let before = '';
    for (let page = 0; page < 5; page++) {
      const res = await media(anna, c, `kind=links&limit=3${before ? `&before=${before}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...ids(res.body.items));
      if (!res.body.nextBefore) break;
      expect(res.body.nextBefore).toBe(seen[seen.length - 1]);
      before = res.body.nextBefore;
    }
    expect(seen).toEqual(newest);
    // A last page that is exactly full says there is no more.
    expect((await media(anna, c, 'kind=links&limit=7')).body.nextBefore).toBeNull();
    expect((await media(anna, c, 'kind=links&limit=6')).body.nextBefore).toBe(newest[5]);
  });
});

describe('what the member reads', () => {
  it('leaves out messages deleted for everyone and those the member hid, for them only', async () => {
    const c = await group(anna, [boris]);
    const kept = await photo(anna, c, 'остаётся');
    const deleted = await photo(anna, c, 'удалено');
    const hidden = await photo(anna, c, 'скрыто у Бориса');
    expect((await api.post('/api/messages/delete', { messageId: deleted }, anna.accessToken)).status).toBe(200);
    expect((await api.post('/api/messages/hide', { messageIds: [hidden] }, boris.accessToken)).status).toBe(200);
    expect(ids(await items(boris, c, 'kind=media'))).toEqual([kept]);
    expect(ids(await items(anna, c, 'kind=media'))).toEqual([hidden, kept]);
  });

  it('shows a newcomer of a group that hides its history only what came after their joining', async () => {
    const c = await group(anna, [boris]);
    const before = await file(anna, c, 'до Глеба');
    expect(
      (await api.post('/api/conversations/history', { conversationId: c, visible: false }, anna.accessToken)).status,
    ).toBe(200);
    const add = await api.post(
      '/api/conversations/members/add',
      { conversationId: c, userIds: [gleb.user.id] },
      anna.accessToken,
    );
    expect(add.status).toBe(200);
    const after = await file(anna, c, 'при Глебе');
    expect(ids(await items(gleb, c, 'kind=files'))).toEqual([after]);
    expect(ids(await items(boris, c, 'kind=files'))).toEqual([after, before]);
    // A cursor from before their history reads nothing older.
    expect(await items(gleb, c, `kind=files&before=${after}`)).toEqual([]);
  });

  it('refuses a removed member at once, and an outsider, as the history does', async () => {
    const c = await group(anna, [boris, gleb]);
    await photo(anna, c, 'при всех');
    expect(await items(gleb, c, 'kind=media')).toHaveLength(1);
    const removed = await api.post(
      '/api/conversations/members/remove',
      { conversationId: c, userId: gleb.user.id },
      anna.accessToken,
    );
    expect(removed.status).toBe(200);
    for (const kind of CHAT_MEDIA_KINDS) {
      const res = await media(gleb, c, `kind=${kind}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Беседа не найдена');
    }
    const stranger = await api.user('stranger');
    expect((await media(stranger, c, 'kind=media')).status).toBe(404);
  });
});

describe('bad requests', () => {
  it('refuses unknown kinds, bad limits and foreign cursors in Russian', async () => {
    const c = await group(anna, [boris]);
    const other = await group(anna, [gleb]);
    const elsewhere = await text(anna, other, 'https://example.org');
    const refusals: [string, string][] = [
      ['', 'kind: неверный тип или значение отсутствует'],
      ['kind=video', 'kind — одно из: media, files, links, voice'],
      ['kind=media&limit=0', 'limit — от 1'],
      ['kind=media&limit=101', 'limit — не больше 100'],
      ['kind=media&limit=2.5', 'limit: неверный тип'],
      ['kind=media&limit=много', 'limit'],
      ['kind=media&before=нет', 'before'],
      [`kind=links&before=${elsewhere}`, 'before: сообщение не найдено в этой беседе'],
      ['kind=media&sort=asc', 'Неизвестные поля: sort'],
    ];
    for (const [query, message] of refusals) {
      const res = await media(anna, c, query);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toContain(message);
    }
  });
});

describe('plans', () => {
  it('reads each kind from its own index at 20 000 messages, not by walking the chat', async () => {
    const c = await group(anna, [boris]);
    const kdb = srv.server.ctx.db as unknown as Kysely<{ messages: Record<string, unknown> }>;
    const start = Date.now() - 1e9;
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      id: `bulk-${c.slice(0, 8)}-${i}`,
      conversation_id: c,
      sender_id: anna.user.id,
      type: i % 500 === 0 ? 'IMAGE' : i % 700 === 0 ? 'FILE' : 'TEXT',
      content: i % 300 === 0 ? `https://example.org/${i}` : `сообщение ${i}`,
      created_at: new Date(start + i).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await kdb
        .insertInto('messages')
        .values(rows.slice(i, i + 500))
        .execute();
    if (srv.server.ctx.dialect === 'postgres') await sql`ANALYZE messages`.execute(kdb);
    else await sql`ANALYZE`.execute(kdb);

    for (const kind of CHAT_MEDIA_KINDS) {
      const statement = chatMediaQuery(srv.server.ctx.db as Database, {
        userId: anna.user.id,
        conversationId: c,
        kind,
        visibleFromSeq: 0,
        beforeSeq: null,
        limit: 31,
      });
      const index = {
        media: 'messages_media_images',
        files: 'messages_media_files',
        links: 'messages_media_links',
        voice: 'messages_media_voice',
      }[kind];
      const plan = await explain(kdb, statement.compile());
      expect(plan, kind).toContain(index);
      expect(plan, kind).not.toMatch(/Seq Scan on messages|SCAN messages(?! USING)/);
    }
    // And the answers are right at that size.
    const got = await items(anna, c, 'kind=media&limit=100');
    expect(got).toHaveLength(40);
    expect(got[0]?.message.id).toBe(`bulk-${c.slice(0, 8)}-19500`);
  });
});

async function explain(
  kdb: Kysely<{ messages: Record<string, unknown> }>,
  compiled: { sql: string; parameters: readonly unknown[] },
) {
  const postgres = srv.server.ctx.dialect === 'postgres';
  return kdb.connection().execute(async (conn) => {
    if (postgres) {
      // A generic plan: the one a prepared statement with any parameters would run.
      await sql`SET plan_cache_mode = force_generic_plan`.execute(conn);
    }
    try {
      const res = await conn.executeQuery({
        sql: `${postgres ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} ${compiled.sql}`,
        parameters: compiled.parameters,
        query: { kind: 'RawNode', sqlFragments: [], parameters: [] } as never,
        queryId: { queryId: 'explain' } as never,
      });
      const rows = res.rows as Record<string, string>[];
      return rows.map((r) => r['QUERY PLAN'] ?? r.detail).join('\n');
    } finally {
      if (postgres) await sql`RESET plan_cache_mode`.execute(conn);
    }
  });
}
