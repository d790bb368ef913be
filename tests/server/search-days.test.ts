// «Дата»'s span of seqs (server/search/message-days.ts) over a real SQLite file: whatever order messages are written
// and noted in — sends, an import of old days with new seqs, a message whose time changes — every message written in
// a range has its seq inside the range's span, and a range with no message has none.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf, MESSAGE_DAYS_DDL, seqSpan, sqliteNoteDays } from '../../server/search/message-days';

const file = new Database(':memory:');
file.exec('CREATE TABLE messages (seq INTEGER PRIMARY KEY, created_at TEXT NOT NULL)');
file.exec(MESSAGE_DAYS_DDL);
const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: file }) });
afterAll(() => db.destroy());

const insert = file.prepare('INSERT INTO messages (seq, created_at) VALUES (?, ?)');
const retime = file.prepare('UPDATE messages SET created_at = ? WHERE seq = ?');
const note = file.prepare(sqliteNoteDays('seq BETWEEN ? AND ?'));

let seed = 11;
const rnd = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-29T08:00:00.000Z');
const iso = (t: number) => new Date(t).toISOString();

describe('a date range’s span of seqs', () => {
  it('notes a day’s lowest and highest seq, and widens it', async () => {
    insert.run(1, '2026-05-02T10:00:00.000Z');
    insert.run(2, '2026-05-02T23:59:59.999Z');
    insert.run(3, '2026-05-03T00:00:00.000Z');
    note.run(1, 3);
    expect(await seqSpan(db, '2026-05-02T00:00:00.000Z', '2026-05-03T00:00:00.000Z')).toEqual({ first: 1, last: 2 });
    expect(await seqSpan(db, '2026-05-03T00:00:00.000Z', undefined)).toEqual({ first: 3, last: 3 });
    expect(await seqSpan(db, undefined, '2026-05-02T00:00:00.000Z')).toBeNull();
    // An import writes 2 May again, with a new seq: the day's span reaches it.
    insert.run(4, '2026-05-02T08:00:00.000Z');
    note.run(4, 4);
    expect(await seqSpan(db, '2026-05-02T00:00:00.000Z', '2026-05-03T00:00:00.000Z')).toEqual({ first: 1, last: 4 });
    expect(dayOf('2026-05-02T23:59:59.999Z')).toBe('2026-05-02');
    file.exec('DELETE FROM messages; DELETE FROM message_days');
  });

  it('holds every message written in any range, whatever order they are written and noted in', async () => {
    let seq = 0;
    let t = NOW - 400 * DAY;
    const written: number[] = [];
    const write = (at: number) => {
      seq += 1;
      insert.run(seq, iso(at));
      written.push(seq);
    };
    for (let round = 0; round < 60; round++) {
      const from = seq + 1;
      if (round % 7 === 3) {
        // An import: a year or more back, in its own order.
        const back = NOW - (400 + Math.floor(rnd() * 800)) * DAY;
        for (let i = 0; i < 40; i++) write(back + Math.floor(rnd() * 30 * DAY));
      } else {
        for (let i = 0; i < 40; i++) {
          t += Math.floor(rnd() * 0.4 * DAY);
          write(t);
        }
      }
      // Some messages' times change; they are noted again (the update trigger queues them).
      for (let i = 0; i < 3; i++) {
        const which = 1 + Math.floor(rnd() * seq);
        retime.run(iso(NOW - Math.floor(rnd() * 1500) * DAY), which);
        note.run(which, which);
      }
      // Noted in slices, as the drain takes the backlog.
      for (let a = from; a <= seq; a += 17) note.run(a, Math.min(seq, a + 16));
    }
    const rows = file.prepare('SELECT seq, created_at FROM messages').all() as { seq: number; created_at: string }[];
    const times = rows.map((r) => Date.parse(r.created_at));
    const lo = Math.min(...times) - 5 * DAY;
    const hi = Math.max(...times) + 5 * DAY;
    const missed: string[] = [];
    let checked = 0;
    for (let i = 0; i < 1000; i++) {
      const [a, b] = [lo + rnd() * (hi - lo), lo + rnd() * (hi - lo)].sort((x, y) => x - y) as [number, number];
      // Whole days in some zone, as the route makes them; sometimes open on one side.
      const since = i % 5 === 0 ? undefined : iso(Math.floor(a / 3_600_000) * 3_600_000);
      const until = i % 7 === 0 || since === undefined ? iso(Math.ceil(b / 3_600_000) * 3_600_000) : undefined;
      const span = await seqSpan(db, since, until);
      const inside = rows.filter(
        (r) => (since === undefined || r.created_at >= since) && (until === undefined || r.created_at < until),
      );
      checked += inside.length;
      for (const r of inside)
        if (!span || r.seq < span.first || r.seq > span.last)
          missed.push(`${r.seq} ${r.created_at} in [${since}, ${until})`);
    }
    expect(missed.slice(0, 5)).toEqual([]);
    // The ranges met most of the messages, many times over.
    expect(written.length).toBe(2400);
    expect(checked).toBeGreaterThan(100_000);
  });
});
