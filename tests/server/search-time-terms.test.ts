// The time terms of the search index (server/search/index-syntax.ts): a message's UTC year, month and day in its
// document, and for a date range the fewest of them whose union holds every instant of the range.
import { describe, expect, it } from 'vitest';
import { filterTerms, timeTerms } from '../../server/search/index-syntax';

const NOW = Date.parse('2026-11-29T08:00:00.000Z');
const termsOf = (iso: string) =>
  filterTerms({ senderId: null, conversationId: 'c', type: 'TEXT', createdAt: iso })
    .split(' ')
    .filter((t) => /^_[ymd]_/.test(t));

describe('time terms', () => {
  it('a message has its UTC year, month and day', () => {
    expect(termsOf('2026-05-02T23:30:00.000Z')).toEqual(['_y_2026', '_m_202605', '_d_20260502']);
  });

  it('a few days are days; whole months and years are one term each', () => {
    // 2–3 May in Moscow (UTC+3): from 1 May 21:00 to 3 May 21:00 UTC.
    expect(timeTerms('2026-05-01T21:00:00.000Z', '2026-05-03T21:00:00.000Z', NOW)).toEqual([
      '_d_20260501',
      '_d_20260502',
      '_d_20260503',
    ]);
    expect(timeTerms('2025-12-31T00:00:00.000Z', '2027-02-02T00:00:00.000Z', NOW)).toEqual([
      '_d_20251231',
      '_y_2026',
      '_m_202701',
      '_d_20270201',
    ]);
  });

  it('a range open on either side is bounded by 1970 and a year past now, in at most 120 terms', () => {
    const upTo = timeTerms(undefined, '2026-05-02T00:00:00.000Z', NOW) ?? [];
    expect(upTo[0]).toBe('_y_1970');
    expect(upTo).toContain('_y_2025');
    expect(upTo.slice(-2)).toEqual(['_m_202604', '_d_20260501']);
    const from = timeTerms('2026-11-20T00:00:00.000Z', undefined, NOW) ?? [];
    expect(from[0]).toBe('_d_20261120');
    expect(from.slice(-2)).toEqual(['_m_202710', '_m_202711']);
    for (const t of [upTo, from]) expect(t.length).toBeLessThanOrEqual(120);
    expect(timeTerms(undefined, undefined, NOW)).toBeNull();
    expect(timeTerms('2026-05-03T00:00:00.000Z', '2026-05-02T00:00:00.000Z', NOW)).toBeNull();
  });

  it('every instant of a range has one of its terms, and an instant a day or more outside has none', () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Messages up to now (a range open above reaches a year past it).
    const span = NOW - Date.parse('2000-01-01T00:00:00.000Z');
    const at = () => Date.parse('2000-01-01T00:00:00.000Z') + Math.floor(rnd() * span);
    for (let i = 0; i < 2000; i++) {
      const [a, b] = [at(), at()].sort((x, y) => x - y) as [number, number];
      const since = i % 5 === 0 ? undefined : new Date(a).toISOString();
      const until = i % 7 === 0 ? undefined : new Date(b).toISOString();
      const terms = new Set(timeTerms(since, until, NOW) ?? []);
      if (since === undefined && until === undefined) continue;
      for (let j = 0; j < 5; j++) {
        const t = at();
        const inside = (since === undefined || t >= a) && (until === undefined || t < b);
        const hit = termsOf(new Date(t).toISOString()).some((term) => terms.has(term));
        if (inside) expect(hit, `${new Date(t).toISOString()} in [${since}, ${until})`).toBe(true);
        const DAY = 86_400_000;
        const farOutside = (since !== undefined && t < a - DAY) || (until !== undefined && t >= b + DAY);
        if (farOutside) expect(hit, `${new Date(t).toISOString()} outside [${since}, ${until})`).toBe(false);
      }
    }
  });
});
