// GET /api/search's filters («от:», «в:», «Тип», «Дата») and «Перейти к дате»
// (GET /api/conversations/:id/messages/at-date) over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL;
// and the plans both databases choose for a filtered search and for the day's first message.
import { type Kysely, sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { filterTerm } from '../../server/search/index-syntax';
import { searchStatement } from '../../server/search/search.routes';
import { client, startTestServer, type TestServer } from './harness';
import { indexedWith } from './search-index-probe';
import { type Api, befriend, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let gleb: TestUser;
let direct: string;
let team: string;

const db = () =>
  srv.server.ctx.db as unknown as Kysely<{ messages: { id: string; conversation_id: string; created_at: string } }>;
const postgres = () => srv.server.ctx.dialect === 'postgres';

async function send(user: TestUser, conversationId: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await api.post(
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content, ...extra },
    user.accessToken,
  );
  if (res.status !== 200) throw new Error(`send failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.message.id as string;
}

/** The server stamps sends with its own time: the fixtures' days are written afterwards. */
const writtenAt = (id: string, iso: string) =>
  db().updateTable('messages').set({ created_at: iso }).where('id', '=', id).execute();

async function upload(user: TestUser, bytes: Buffer, name: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${srv.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${user.accessToken}` },
  });
  return (await res.json()) as { url: string };
}

function search(user: TestUser, params: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
  return api.get(`/api/search?${qs}`, user.accessToken);
}

async function found(user: TestUser, params: Record<string, string | number>): Promise<string[]> {
  const res = await search(user, params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results.map((r: { message: { content: string } }) => r.message.content);
}

const atDate = (user: TestUser, conversationId: string, query: string) =>
  api.get(`/api/conversations/${conversationId}/messages/at-date?${query}`, user.accessToken);

beforeAll(async () => {
  srv = await startTestServer({ searchPerMinute: 10_000 });
  api = client(srv.url);
  [anna, boris, gleb] = await Promise.all([api.user('anna'), api.user('boris'), api.user('gleb')]);
  await befriend(api, anna, boris);
  await befriend(api, anna, gleb);
  direct = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body.conversation
    .id;
  const res = await api.post(
    '/api/conversations',
    { participantIds: [boris.user.id, gleb.user.id], title: 'Поход', isGroup: true },
    anna.accessToken,
  );
  team = res.body.conversation.id;

  // Days in Moscow (UTC+3): 1, 2 and 3 May 2026.
  await writtenAt(await send(anna, direct, 'рюкзак первого мая'), '2026-04-30T21:30:00.000Z');
  await writtenAt(await send(boris, direct, 'рюкзак второго мая'), '2026-05-02T10:00:00.000Z');
  await writtenAt(await send(anna, direct, 'рюкзак третьего мая'), '2026-05-03T20:59:00.000Z');
  await writtenAt(await send(boris, team, 'рюкзак в группе'), '2026-05-02T12:00:00.000Z');
  await writtenAt(await send(anna, team, 'рюкзак по ссылке https://example.org/packing'), '2026-05-02T13:00:00.000Z');
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#345678' } })
    .png()
    .toBuffer();
  const picture = await upload(anna, png, 'рюкзак.png', 'image/png');
  await writtenAt(
    await send(anna, team, 'рюкзак на фото', { type: 'IMAGE', attachments: [{ url: picture.url, type: 'IMAGE' }] }),
    '2026-05-02T14:00:00.000Z',
  );
  const list = await upload(anna, Buffer.from('спальник, котелок'), 'список.txt', 'text/plain');
  await writtenAt(
    await send(anna, team, 'рюкзак списком', { type: 'FILE', attachments: [{ url: list.url, type: 'FILE' }] }),
    '2026-05-02T15:00:00.000Z',
  );
});
afterAll(() => srv.close());

describe('search filters', () => {
  it('«от:» keeps one person’s messages', async () => {
    expect(await found(anna, { q: 'рюкзак', from: boris.user.id })).toEqual(['рюкзак в группе', 'рюкзак второго мая']);
  });

  it('«в:» keeps one chat’s, and combines with «от:»', async () => {
    expect(await found(anna, { q: 'рюкзак', conversationId: direct })).toHaveLength(3);
    expect(await found(anna, { q: 'рюкзак', conversationId: team, from: boris.user.id })).toEqual(['рюкзак в группе']);
  });

  it('«Тип» keeps photos, files, links or voice messages', async () => {
    expect(await found(anna, { q: 'рюкзак', kind: 'photo' })).toEqual(['рюкзак на фото']);
    expect(await found(anna, { q: 'рюкзак', kind: 'file' })).toEqual(['рюкзак списком']);
    expect(await found(anna, { q: 'рюкзак', kind: 'link' })).toEqual(['рюкзак по ссылке https://example.org/packing']);
    expect(await found(anna, { q: 'рюкзак', kind: 'voice' })).toEqual([]);
  });

  it('«Дата» takes whole days of the user’s calendar', async () => {
    const moscow = { q: 'рюкзак', conversationId: direct, tz: 180 };
    expect(await found(anna, { ...moscow, since: '2026-05-01', until: '2026-05-01' })).toEqual(['рюкзак первого мая']);
    expect(await found(anna, { ...moscow, since: '2026-05-02' })).toEqual([
      'рюкзак третьего мая',
      'рюкзак второго мая',
    ]);
    expect(await found(anna, { ...moscow, until: '2026-05-02' })).toEqual(['рюкзак второго мая', 'рюкзак первого мая']);
    // In UTC the first message was written on 30 April, and the third still on 3 May.
    expect(await found(anna, { q: 'рюкзак', conversationId: direct, since: '2026-05-01' })).toEqual([
      'рюкзак третьего мая',
      'рюкзак второго мая',
    ]);
  });

  it('refuses an unknown kind, a bad date, an offset no zone has and reversed dates, in Russian', async () => {
    const refusals: [Record<string, string | number>, string][] = [
      [{ kind: 'видео' }, 'Неизвестный тип сообщений'],
      [{ since: '2026-02-30' }, 'Дата — в виде ГГГГ-ММ-ДД'],
      [{ until: 'вчера' }, 'Дата — в виде ГГГГ-ММ-ДД'],
      [{ tz: 900 }, 'Такого часового пояса нет'],
      [{ tz: 'мск' }, 'Часовой пояс — целое число минут'],
      [{ since: '2026-05-03', until: '2026-05-02' }, 'Дата «по» раньше даты «с»'],
    ];
    for (const [params, message] of refusals) {
      const res = await search(anna, { q: 'рюкзак', ...params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.message).toContain(message);
    }
  });

  it('refuses a chat the user is not in as a missing one, and finds nothing of it after removal', async () => {
    const carol = await api.user('carol');
    const res = await search(carol, { q: 'рюкзак', conversationId: direct });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Беседа не найдена');

    expect(await found(gleb, { q: 'рюкзак', from: anna.user.id })).toHaveLength(3);
    const removed = await api.post(
      '/api/conversations/members/remove',
      { conversationId: team, userId: gleb.user.id },
      anna.accessToken,
    );
    expect(removed.status).toBe(200);
    expect(await found(gleb, { q: 'рюкзак', from: anna.user.id })).toEqual([]);
    expect(await found(gleb, { q: 'рюкзак', kind: 'photo' })).toEqual([]);
    expect((await search(gleb, { q: 'рюкзак', conversationId: team })).status).toBe(404);
  });
});

describe('the filters as terms of the index', () => {
  /** How many messages' index documents hold `term`, once the backlog is drained (a search drains it first). */
  async function indexed(term: string): Promise<number> {
    await search(anna, { q: 'рюкзак' });
    return indexedWith(srv.server.ctx.db as Database, postgres(), term);
  }

  it('each message is indexed with its sender, chat and kind, which the search intersects with its words', async () => {
    expect(await indexed(filterTerm('s', boris.user.id))).toBe(2);
    expect(await indexed(filterTerm('c', direct))).toBe(3);
    expect(await indexed(filterTerm('t', 'IMAGE'))).toBe(1);
    // In the statement itself, not only among the row conditions.
    const { sql: text, parameters } = searchStatement(postgres(), 'рюкзак', {
      userId: anna.user.id,
      conversationId: team,
      beforeSeq: undefined,
      limit: 21,
      senderId: boris.user.id,
      kind: 'photo',
      since: undefined,
      until: undefined,
    }).compile(srv.server.ctx.db as Database);
    const match = parameters.find((p) => typeof p === 'string' && p.includes('рюкзак'));
    expect(text).toMatch(postgres() ? /@@/ : /MATCH/);
    for (const term of [filterTerm('c', team), filterTerm('s', boris.user.id), filterTerm('t', 'IMAGE')])
      expect(match).toContain(term);
    // A date is not in the match: the walk is bounded by its days' span of seqs.
    const dated = searchStatement(postgres(), 'рюкзак', {
      userId: anna.user.id,
      conversationId: undefined,
      beforeSeq: undefined,
      limit: 21,
      senderId: undefined,
      kind: undefined,
      since: '2026-05-01T21:00:00.000Z',
      until: '2026-05-03T21:00:00.000Z',
      span: { first: 7, last: 9 },
    }).compile(srv.server.ctx.db as Database);
    expect(dated.sql).toMatch(postgres() ? /s\.seq BETWEEN \$\d+ AND \$\d+/ : /s\.rowid BETWEEN \? AND \?/);
    expect(dated.parameters).toEqual(expect.arrayContaining([7, 9]));
    expect(dated.parameters.find((p) => typeof p === 'string' && p.includes('рюкзак'))).not.toMatch(/_[ymd]_/);
  });

  it('a message whose time changes is found under its new day (its day’s span of seqs is widened)', async () => {
    const id = await send(boris, team, 'рюкзак задним числом');
    expect(await found(anna, { q: 'задним', since: '2026-05-01', until: '2026-05-01' })).toEqual([]);
    await writtenAt(id, '2026-05-01T10:00:00.000Z');
    expect(await found(anna, { q: 'задним', since: '2026-05-01', until: '2026-05-01' })).toEqual([
      'рюкзак задним числом',
    ]);
    expect(await found(anna, { q: 'задним', since: '2026-05-02' })).toEqual([]);
    await api.post('/api/messages/delete', { messageId: id }, boris.accessToken);
  });

  it('no typed word or prefix reaches them: an id, a kind or «_» finds nothing', async () => {
    const hex = boris.user.id.replace(/-/g, '');
    for (const q of [hex, `s ${hex}`, '_s_', 'image', '_t_image', 'c', '_c', 'tex'])
      expect(await found(anna, { q }), q).toEqual([]);
  });
});

describe('«Перейти к дате»', () => {
  it('gives the first message at or after the start of the day in the user’s zone', async () => {
    const ids = (await api.get(`/api/conversations/${direct}/messages`, anna.accessToken)).body.messages.map(
      (m: { id: string }) => m.id,
    );
    const [first, second, third] = ids;
    const on = async (date: string, tz: number) => (await atDate(anna, direct, `date=${date}&tz=${tz}`)).body;
    expect(await on('2026-05-01', 180)).toEqual({ messageId: first });
    // In UTC the 1 May message was on 30 April: 1 May starts with the next one.
    expect(await on('2026-05-01', 0)).toEqual({ messageId: second });
    expect(await on('2026-05-03', 180)).toEqual({ messageId: third });
    expect(await on('2026-05-04', 180)).toEqual({ messageId: null });
    expect(await on('2020-01-01', 180)).toEqual({ messageId: first });
  });

  it('is authorised as reading the history, and refuses a bad day or offset in Russian', async () => {
    const carol = await api.user('carol2');
    const stranger = await atDate(carol, direct, 'date=2026-05-01&tz=180');
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('Беседа не найдена');
    // Removed from the group above.
    expect((await atDate(gleb, team, 'date=2026-05-01&tz=180')).status).toBe(404);
    for (const [query, message] of [
      ['date=2026-13-01', 'Дата — в виде ГГГГ-ММ-ДД'],
      ['date=1.05.2026', 'Дата — в виде ГГГГ-ММ-ДД'],
      ['date=2026-05-01&tz=-800', 'Такого часового пояса нет'],
      ['date=2026-05-01&tz=1.5', 'Часовой пояс — целое число минут'],
    ]) {
      const res = await atDate(anna, direct, query);
      expect(res.status, query).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect((await atDate(anna, direct, 'tz=180')).status).toBe(400);
  });
});

describe('without words', () => {
  it('a person, a kind or a date lists the newest messages that pass, in the chats one reads', async () => {
    expect(await found(anna, { from: boris.user.id })).toEqual(['рюкзак в группе', 'рюкзак второго мая']);
    // Only the chat's messages, no service lines (the group's creation, Глеб's removal are the owner's).
    expect(await found(anna, { from: anna.user.id, conversationId: team })).toEqual([
      'рюкзак списком',
      'рюкзак на фото',
      'рюкзак по ссылке https://example.org/packing',
    ]);
    expect(await found(anna, { kind: 'photo' })).toEqual(['рюкзак на фото']);
    expect(await found(anna, { conversationId: direct, since: '2026-05-02', tz: 180 })).toEqual([
      'рюкзак третьего мая',
      'рюкзак второго мая',
    ]);
    // Punctuation alone is no words: the filter lists.
    expect(await found(anna, { q: '?!', from: boris.user.id })).toHaveLength(2);
    // Глеб left the group: none of its messages, with words or without.
    expect(await found(gleb, { from: boris.user.id })).toEqual([]);
  });

  it('pages on with nextBefore as a search with words does', async () => {
    const first = await search(anna, { from: anna.user.id, limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.results.map((r: { message: { content: string } }) => r.message.content)).toEqual([
      'рюкзак списком',
      'рюкзак на фото',
    ]);
    expect(first.body.results[0].highlights).toEqual([]);
    expect(await found(anna, { from: anna.user.id, limit: 2, before: first.body.nextBefore as string })).toEqual([
      'рюкзак по ссылке https://example.org/packing',
      'рюкзак третьего мая',
    ]);
  });

  it('asks for words or a filter that narrows, in Russian: the chat alone is not one', async () => {
    const asks: Record<string, string>[] = [{}, { q: '   ' }, { conversationId: direct }];
    for (const params of asks) {
      const res = await search(anna, params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.message).toContain('Введите текст для поиска или выберите фильтр');
    }
  });
});

describe('«Удалить у меня»', () => {
  it('a message hidden for oneself leaves one’s own search, with words or without, until shown again', async () => {
    const [photo] = (await search(anna, { q: 'рюкзак', kind: 'photo' })).body.results.map(
      (r: { message: { id: string } }) => r.message.id,
    );
    const hide = (on: boolean) => api.post('/api/messages/hide', { messageIds: [photo], on }, anna.accessToken);
    expect((await hide(true)).status).toBe(200);
    expect(await found(anna, { q: 'рюкзак', kind: 'photo' })).toEqual([]);
    expect(await found(anna, { q: 'фото' })).toEqual([]);
    expect(await found(anna, { kind: 'photo' })).toEqual([]);
    // Hidden for Анна alone: Борис still finds it.
    expect(await found(boris, { q: 'рюкзак', kind: 'photo' })).toEqual(['рюкзак на фото']);
    expect((await hide(false)).status).toBe(200);
    expect(await found(anna, { kind: 'photo' })).toEqual(['рюкзак на фото']);
  });
});

describe('plans', () => {
  const filter = {
    userId: 'u',
    conversationId: undefined,
    beforeSeq: undefined,
    limit: 21,
    senderId: 'u2',
    kind: 'photo' as const,
    since: '2026-05-01T00:00:00.000Z',
    until: '2026-05-02T00:00:00.000Z',
    span: { first: 3, last: 40 },
  };

  async function plan(statement: ReturnType<typeof sql>): Promise<string> {
    const kdb = srv.server.ctx.db as Database;
    if (!postgres()) {
      const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${statement}`.execute(kdb);
      return rows.map((r) => r.detail).join('\n');
    }
    // The test tables are small: with sequential scans allowed the planner would pick them whatever the indexes.
    return kdb.connection().execute(async (c) => {
      await sql`SET enable_seqscan = off`.execute(c);
      try {
        const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${statement}`.execute(c);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await sql`RESET enable_seqscan`.execute(c);
      }
    });
  }

  it('a filtered search walks the word index and reaches messages by their key', async () => {
    const p = await plan(searchStatement(postgres(), 'рюкзак', filter));

    if (postgres()) {
      expect(p).toMatch(/Bitmap Index Scan on message_search|Index Scan .*message_search/);
      expect(p).not.toMatch(/Seq Scan on messages/);
    } else {
      expect(p).toMatch(/SCAN s VIRTUAL TABLE INDEX/);
      expect(p).toMatch(/SEARCH m USING INTEGER PRIMARY KEY/);
      expect(p).not.toMatch(/SCAN m\b/);
    }
  });

  it('a date without words walks only its days’ span of the messages’ key, newest first', async () => {
    const dated = { ...filter, senderId: undefined, kind: undefined };
    const p = await plan(searchStatement(postgres(), '', dated));
    if (postgres()) expect(p).toMatch(/Index Scan Backward using messages_pkey[\s\S]*seq >= .*seq <= /);
    else expect(p).toMatch(/SEARCH m USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
    expect(p).not.toMatch(/TEMP B-TREE|Sort/);
  });

  it('a chat’s search without words walks the chat’s messages by its index, not every message', async () => {
    const p = await plan(searchStatement(postgres(), '', { ...filter, conversationId: team }));
    if (postgres()) expect(p).not.toMatch(/Seq Scan on messages/);
    else expect(p).toMatch(/SEARCH m USING (COVERING )?INDEX messages_/);
  });

  it('the day’s first message comes from the conversation’s index by time', async () => {
    const statement = db()
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', '=', direct)
      .where('created_at', '>=', '2026-05-01T00:00:00.000Z')
      .orderBy('created_at')
      .limit(1)
      .compile();
    const p = await plan(sql.raw(substitute(statement.sql, statement.parameters)));
    expect(p).toMatch(/messages_conversation_created/);
    expect(p).not.toMatch(/Seq Scan on messages|SCAN messages\b/);
  });
});

/** A compiled statement with its parameters written in (test strings only, quoted). */
function substitute(text: string, parameters: readonly unknown[]): string {
  let i = 0;
  return text.replace(/\?|\$\d+/g, () => `'${String(parameters[i++]).replace(/'/g, "''")}'`);
}
