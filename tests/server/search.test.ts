// GET /api/search over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: the same cases must give
// the same answers on both databases.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteHandle } from '../../server/db/database';
import * as migration005 from '../../server/db/migrations/005_search';
import * as migration052 from '../../server/db/migrations/052_search_filter_terms';
import * as migration053 from '../../server/db/migrations/053_message_days';
import { filterTerm } from '../../server/search/index-syntax';
import { drainSqliteBacklog } from '../../server/search/search-index';
import { client, startTestServer, type TestServer } from './harness';
import { indexedWith } from './search-index-probe';
import { type Api, befriend, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
/** alice ↔ bob (direct), alice + carol (direct): carol is never a member of aliceBob. */
let aliceBob: string;
let aliceCarol: string;

async function send(user: TestUser, conversationId: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await api.post(
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content, ...extra },
    user.accessToken,
  );
  if (res.status !== 200) throw new Error(`send failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.message as { id: string; content: string };
}

function search(user: TestUser, q: string, params: Record<string, string | number> = {}) {
  const qs = new URLSearchParams({ q, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  return api.get(`/api/search?${qs}`, user.accessToken);
}

/** Contents of the messages user finds for q (newest first). */
async function found(user: TestUser, q: string, params: Record<string, string | number> = {}): Promise<string[]> {
  const res = await search(user, q, params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results.map((r: { message: { content: string } }) => r.message.content);
}

const TEXTS = [
  'Видел твою собаку?',
  'Собаки лаяли всю ночь',
  'Гуляю с собакой в парке',
  'Он пошёл домой',
  'Кошка спит',
  'Sending the files tomorrow',
  'Красный мяч и синий мяч',
  'мяч синий, а не красный',
];

beforeAll(async () => {
  srv = await startTestServer({ searchPerMinute: 10_000 });
  api = client(srv.url);
  [alice, bob, carol] = await Promise.all([api.user('alice'), api.user('bob'), api.user('carol')]);
  await befriend(api, alice, bob);
  await befriend(api, alice, carol);
  aliceBob = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation
    .id;
  aliceCarol = (await api.post('/api/conversations/with', { userId: carol.user.id }, alice.accessToken)).body
    .conversation.id;
  for (const t of TEXTS) await send(alice, aliceBob, t);
});
afterAll(() => srv.close());

describe('morphology', () => {
  it('finds every form of a Russian word by its stem', async () => {
    const expected = ['Гуляю с собакой в парке', 'Собаки лаяли всю ночь', 'Видел твою собаку?'];
    expect(await found(bob, 'собака ')).toEqual(expected);
    expect(await found(bob, 'собаки ')).toEqual(expected);
    expect(await found(bob, 'СОБАКОЙ ')).toEqual(expected);
    expect(await found(bob, 'собаку!')).toEqual(expected);
  });

  it('treats ё as е, both ways', async () => {
    expect(await found(bob, 'пошел')).toEqual(['Он пошёл домой']);
    expect(await found(bob, 'пошёл')).toEqual(['Он пошёл домой']);
    const id = (await send(alice, aliceCarol, 'Еще пошел дождь')).id;
    expect(await found(carol, 'ещё')).toEqual(['Еще пошел дождь']);
    await api.post('/api/messages/delete', { messageId: id }, alice.accessToken);
  });

  it('stems English words too', async () => {
    expect(await found(bob, 'file ')).toEqual(['Sending the files tomorrow']);
    expect(await found(bob, 'FILES')).toEqual(['Sending the files tomorrow']);
    expect(await found(bob, 'sent ')).toEqual([]);
  });

  it('matches the last word as a prefix while it is typed, and not once a space follows it', async () => {
    expect(await found(bob, 'соб')).toHaveLength(3);
    expect(await found(bob, 'соб ')).toEqual([]);
    expect(await found(bob, 'кош')).toEqual(['Кошка спит']);
    // Only the last word: an earlier one must be whole.
    expect(await found(bob, 'соб ночь')).toEqual([]);
  });

  it('needs every word, in any order; a quoted phrase only in its order', async () => {
    expect(await found(bob, 'мяч красный')).toEqual(['мяч синий, а не красный', 'Красный мяч и синий мяч']);
    expect(await found(bob, 'собака парк')).toEqual(['Гуляю с собакой в парке']);
    expect(await found(bob, 'собака кошка')).toEqual([]);
    expect(await found(bob, '"красный мяч"')).toEqual(['Красный мяч и синий мяч']);
    expect(await found(bob, '"мяч красный"')).toEqual([]);
    expect(await found(bob, '"синий мяч" красного')).toEqual(['Красный мяч и синий мяч']);
  });
});

describe('results', () => {
  it('gives a plain-text snippet with the ranges of the matching words', async () => {
    const res = await search(bob, 'собаку');
    const first = res.body.results.find(
      (r: { message: { content: string } }) => r.message.content === 'Видел твою собаку?',
    );
    expect(first.conversationId).toBe(aliceBob);
    expect(first.message.senderId).toBe(alice.user.id);
    expect(first.snippet).toBe('Видел твою собаку?');
    expect(first.highlights).toEqual([[11, 17]]);
    const both = (await search(bob, 'мяч')).body.results[1];
    expect(both.snippet).toBe('Красный мяч и синий мяч');
    expect(both.highlights).toEqual([
      [8, 11],
      [20, 23],
    ]);
  });

  it('cuts a long text around the first match', async () => {
    const long = `${'Вступление без нужного слова. '.repeat(10)}Здесь барсук живёт. ${'Хвост текста. '.repeat(20)}`;
    await send(alice, aliceBob, long);
    const [hit] = (await search(bob, 'барсуки')).body.results;
    expect(hit.snippet.startsWith('…')).toBe(true);
    expect(hit.snippet.endsWith('…')).toBe(true);
    expect(hit.snippet.length).toBeLessThanOrEqual(162);
    const [start, end] = hit.highlights[0];
    expect(hit.snippet.slice(start, end)).toBe('барсук');
  });

  it('pages newest first with before / nextBefore', async () => {
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push(await send(alice, aliceCarol, `Пагинация номер ${i}`));
    const first = await search(carol, 'пагинация', { limit: 2 });
    expect(first.body.results.map((r: { message: { id: string } }) => r.message.id)).toEqual([
      sent[4]?.id,
      sent[3]?.id,
    ]);
    expect(first.body.nextBefore).toBe(sent[3]?.id);
    const second = await search(carol, 'пагинация', { limit: 2, before: first.body.nextBefore });
    expect(second.body.results.map((r: { message: { id: string } }) => r.message.id)).toEqual([
      sent[2]?.id,
      sent[1]?.id,
    ]);
    const last = await search(carol, 'пагинация', { limit: 2, before: second.body.nextBefore });
    expect(last.body.results.map((r: { message: { id: string } }) => r.message.id)).toEqual([sent[0]?.id]);
    expect(last.body.nextBefore).toBeNull();
    // Default page: 20.
    for (let i = 0; i < 21; i++) await send(alice, aliceCarol, `Страница ${i}`);
    const page = await search(carol, 'страница');
    expect(page.body.results).toHaveLength(20);
    expect(page.body.nextBefore).not.toBeNull();
  });

  it('finds files by their names', async () => {
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'Отчёт о прививках котов.txt');
    const up = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${alice.accessToken}` },
    });
    const { url } = await up.json();
    await send(alice, aliceCarol, '', { type: 'FILE', attachments: [{ url, type: 'FILE' }] });
    const [hit] = (await search(carol, 'отчет прививка')).body.results;
    expect(hit.message.type).toBe('FILE');
    expect(hit.snippet).toBe('Отчёт о прививках котов.txt');
    expect(hit.highlights).toEqual([
      [0, 5],
      [8, 17],
    ]);
  });
});

describe('visibility', () => {
  it('never shows a non-member a message, by word or by prefix', async () => {
    expect(await found(carol, 'собака')).toEqual([]);
    expect(await found(carol, 'со')).not.toContain('Видел твою собаку?');
    expect(await found(carol, 'видел')).toEqual([]);
    expect((await search(carol, 'собака', { conversationId: aliceBob })).status).toBe(404);
    expect((await search(carol, 'собака', { conversationId: 'no-such-conversation' })).status).toBe(404);
  });

  it('limits a search to one conversation', async () => {
    await send(alice, aliceCarol, 'Собака соседа');
    expect(await found(alice, 'собака', { conversationId: aliceCarol })).toEqual(['Собака соседа']);
    expect(await found(alice, 'собака', { conversationId: aliceBob })).toHaveLength(3);
    expect(await found(alice, 'собака')).toHaveLength(4);
  });

  it('never shows a deleted message', async () => {
    const m = await send(alice, aliceBob, 'Удалю про енота');
    expect(await found(bob, 'енот')).toEqual(['Удалю про енота']);
    expect((await api.post('/api/messages/delete', { messageId: m.id }, alice.accessToken)).status).toBe(200);
    expect(await found(bob, 'енот')).toEqual([]);
    expect(await found(bob, 'ено')).toEqual([]);
  });

  it('finds an edited message by its new text only (the index follows UPDATE of messages.content)', async () => {
    const m = await send(alice, aliceBob, 'Купил жирафа');
    expect(await found(bob, 'жираф')).toEqual(['Купил жирафа']);
    await srv.server.ctx.db.updateTable('messages').set({ content: 'Купил бегемота' }).where('id', '=', m.id).execute();
    expect(await found(bob, 'жираф')).toEqual([]);
    expect(await found(bob, 'жир')).toEqual([]);
    expect(await found(bob, 'бегемоты')).toEqual(['Купил бегемота']);
  });
});

describe('bad input', () => {
  it('refuses an empty, blank or too long query in Russian', async () => {
    for (const q of ['', '   ', '\t\n']) {
      const res = await search(bob, q);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/[а-я]/i);
    }
    const long = await search(bob, 'я'.repeat(201));
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('200');
    expect((await search(bob, 'я'.repeat(200))).status).toBe(200);
    expect((await search(bob, 'собака', { limit: 51 })).status).toBe(400);
    expect((await search(bob, 'собака', { before: 'nope' })).status).toBe(400);
    expect((await api.get('/api/search?q=x')).status).toBe(401);
  });

  it('reads the index syntax as text: operators never act and never fail', async () => {
    await send(alice, aliceBob, 'NEAR the end: минус-один (скобки) звезда*');
    expect(await found(bob, 'NEAR')).toEqual(['NEAR the end: минус-один (скобки) звезда*']);
    expect(await found(bob, 'минус -один')).toEqual(['NEAR the end: минус-один (скобки) звезда*']);
    expect(await found(bob, 'скобки)')).toEqual(['NEAR the end: минус-один (скобки) звезда*']);
    // "OR" is a word here, not the operator: nothing has both words.
    expect(await found(bob, 'кошка OR собака')).toEqual([]);
    expect(await found(bob, 'кошка AND')).toEqual([]);
    expect(await found(bob, '*')).toEqual([]);
  });

  it('answers every fuzzed query with 200 or a 400, never 500', async () => {
    const alphabet = [
      '"',
      '*',
      '(',
      ')',
      'NEAR',
      '-',
      ':',
      '^',
      '+',
      "'",
      '\\',
      '&',
      '|',
      '!',
      '<->',
      ':*',
      'AND',
      'OR',
      'NOT',
      'соб',
      'a',
      ' ',
      '{',
      '}',
      '%',
      '_',
      'ё',
      '\u0301',
      '🐶',
      '٣',
    ];
    let seed = 42;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 150; i++) {
      let q = '';
      const n = 1 + Math.floor(rnd() * 8);
      for (let j = 0; j < n; j++) q += alphabet[Math.floor(rnd() * alphabet.length)];
      const res = await search(bob, q.slice(0, 200));
      expect([200, 400], `${q} → ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      if (res.status === 400) expect(q.trim()).toBe('');
    }
  });
});

describe('the backlog', () => {
  const waiting = async () => {
    const db = srv.server.ctx.db as unknown as Kysely<{ message_search_backlog: { seq: number } }>;
    const row = await db
      .selectFrom('message_search_backlog')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /**
   * Sends until one of `texts` is seen still in the backlog: the background drain runs every half second on the real
   * clock, and may come between a send and the look at the backlog. A send indexed at once would never be seen there.
   */
  const sendHeld = async (texts: string[]) => {
    const sent: string[] = [];
    for (const text of texts) {
      await send(alice, aliceBob, text);
      sent.push(text);
      if ((await waiting()) > 0) return sent;
    }
    throw new Error('no send was ever seen in the backlog');
  };

  it('holds a send until the next search, which indexes it first', async () => {
    const sent = await sendHeld(['Выдра купается в реке', 'Выдра ныряет в реке', 'Выдра спит у реки']);
    expect((await found(bob, 'выдры')).sort()).toEqual(sent.sort());
    expect(await waiting()).toBe(0);
  });

  it('is indexed within a second when nobody searches', async () => {
    const sent = await sendHeld(['Лось ест листья', 'Лось ест кору', 'Лось ест мох']);
    await expect.poll(waiting, { timeout: 3000, interval: 100 }).toBe(0);
    expect((await found(bob, 'лось')).sort()).toEqual(sent.sort());
  });

  it('is indexed in slices on SQLite, oldest first, each one short (the event loop is free between them)', async (ctx) => {
    const file = sqliteHandle(srv.server.ctx.db);
    if (!file) return ctx.skip(); // PostgreSQL drains in batches between awaits
    // How many otters the first test sent depends on when the background drain ran; re-indexing must find the same.
    const before = (await found(bob, 'выдры')).sort();
    expect(before.length).toBeGreaterThan(0);
    // All synchronous, so the background drain cannot run in between: every message goes back into the backlog.
    file.prepare('INSERT OR IGNORE INTO message_search_backlog (seq) SELECT seq FROM messages').run();
    const count = (sqlText: string) => (file.prepare(sqlText).get() as { n: number }).n;
    const total = count('SELECT count(*) AS n FROM message_search_backlog');
    expect(total).toBeGreaterThan(20);
    const oldest = count('SELECT min(seq) AS n FROM message_search_backlog');
    expect(drainSqliteBacklog(file, 10)).toEqual({ statements: 5, more: true });
    expect(count('SELECT count(*) AS n FROM message_search_backlog')).toBe(total - 10);
    expect(count('SELECT min(seq) AS n FROM message_search_backlog')).toBeGreaterThan(oldest);
    let slices = 1;
    while (drainSqliteBacklog(file, 10).more) slices++;
    expect(slices + 1).toBe(Math.ceil(total / 10));
    expect(count('SELECT count(*) AS n FROM message_search_backlog')).toBe(0);
    expect(drainSqliteBacklog(file, 10)).toEqual({ statements: 1, more: false });
    expect((await found(bob, 'выдры')).sort()).toEqual(before);
  });

  it('takes an edited text out of the index in the edit itself', async () => {
    const m = await send(alice, aliceBob, 'Крокодил плавает');
    expect(await found(bob, 'крокодил')).toEqual(['Крокодил плавает']);
    const res = await api.post(
      '/api/messages/edit',
      { messageId: m.id, content: 'Аллигатор плавает' },
      alice.accessToken,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await found(bob, 'крокодил')).toEqual([]);
    expect(await found(bob, 'аллигатор')).toEqual(['Аллигатор плавает']);
  });
});

describe('migration 005', () => {
  it('indexes the history that existed before it', async () => {
    const db = srv.server.ctx.db as unknown as Kysely<unknown>;
    await migration005.down(db);
    // Written while there is no index at all.
    await send(alice, aliceBob, 'Старый архивный попугай');
    await migration005.up(db);
    expect(await found(bob, 'попугаи')).toEqual(['Старый архивный попугай']);
    expect(await found(bob, 'собака')).toHaveLength(3);
    expect(await found(carol, 'попугай')).toEqual([]);
  });
});

describe('migration 052', () => {
  it('indexes the history again with its senders, chats and kinds, and its down gives the earlier index back', async () => {
    const db = srv.server.ctx.db as unknown as Kysely<unknown>;
    const postgres = srv.server.ctx.dialect === 'postgres';
    const fromAlice = filterTerm('s', alice.user.id);
    const holding = () => indexedWith(db, postgres, fromAlice);
    await found(bob, 'собака'); // drains the backlog
    const before = await holding();
    expect(before).toBeGreaterThan(0);
    await migration052.down(db);
    // SQLite's earlier table splits a filter term into words: it holds none. (PostgreSQL's down keeps them.)
    if (!postgres) expect(await holding()).toBe(0);
    expect(await found(bob, 'собака')).toHaveLength(3);
    await migration052.up(db);
    expect(await holding()).toBe(before);
    expect(await found(bob, 'собака', { from: alice.user.id })).toHaveLength(3);
    expect(await found(bob, 'собака', { from: bob.user.id })).toEqual([]);
  });
});

describe('migration 053', () => {
  it('notes the days of the messages there are, and its down takes the table away', async () => {
    const db = srv.server.ctx.db as unknown as Kysely<unknown>;
    // The file's messages were all sent within the last day or two.
    const recent = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const spans = async () =>
      (
        await sql<{ day: string; first: number; last: number }>`
        SELECT day, first_seq AS first, last_seq AS last FROM message_days ORDER BY day`.execute(db)
      ).rows.map((r) => ({
        ...r,
        first: Number(r.first),
        last: Number(r.last),
      }));
    const fromMessages = async () =>
      (
        await sql<{ day: string; first: number; last: number }>`
        SELECT substr(created_at, 1, 10) AS day, min(seq) AS first, max(seq) AS last FROM messages GROUP BY 1 ORDER BY 1`.execute(
          db,
        )
      ).rows.map((r) => ({ ...r, first: Number(r.first), last: Number(r.last) }));
    expect(await found(bob, 'собака', { since: recent })).toHaveLength(3);
    await migration053.down(db);
    await expect(spans()).rejects.toThrow();
    await migration053.up(db);
    expect(await spans()).toEqual(await fromMessages());
    expect(await found(bob, 'собака', { since: recent })).toHaveLength(3);
    expect(await found(bob, 'собака', { until: '2020-01-01' })).toEqual([]);
  });
});

describe('rate limit', () => {
  it('allows a user SEARCH_PER_MINUTE searches a minute, then 429 in Russian with Retry-After; others unaffected', async () => {
    const limited = await startTestServer({ searchPerMinute: 3 });
    try {
      const c = client(limited.url);
      const [dora, eve] = await Promise.all([c.user('dora'), c.user('eve')]);
      for (let i = 0; i < 3; i++) expect((await c.get('/api/search?q=кот', dora.accessToken)).status).toBe(200);
      const refused = await c.get('/api/search?q=кот', dora.accessToken);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Слишком много поисков\. Повторите через \d+ с\.$/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await c.get('/api/search?q=кот', eve.accessToken)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
