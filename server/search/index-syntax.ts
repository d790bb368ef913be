// The query and document languages of the two indexes, written from stems. Stems hold only letters and digits
// (morphology.ts), so quoting them is enough: nothing a user types can become an operator of either index.
import type { QueryPart } from './morphology';

/** An FTS5 MATCH expression: "stem", "stem"* for a prefix, "a b c" for a phrase; all of them (AND). */
export function fts5Match(parts: readonly QueryPart[]): string {
  return parts
    .map((p) => (p.kind === 'phrase' ? `"${p.stems.join(' ')}"` : p.prefix ? `"${p.stem}"*` : `"${p.stem}"`))
    .join(' AND ');
}

/** A tsquery literal: 'stem', 'stem':* for a prefix, ('a' <-> 'b') for a phrase; all of them (&). */
export function tsQuery(parts: readonly QueryPart[]): string {
  return parts
    .map((p) =>
      p.kind === 'phrase'
        ? `(${p.stems.map((s) => `'${s}'`).join(' <-> ')})`
        : p.prefix
          ? `'${p.stem}':*`
          : `'${p.stem}'`,
    )
    .join(' & ');
}

/** PostgreSQL keeps word positions up to this value (later words share it). */
const TS_MAX_POSITION = 16_383;

/**
 * A tsvector literal of space-separated stems with their positions ('stem':1,4 'other':2), read by
 * PostgreSQL's tsvector input as is — no parser or dictionary of the database touches the words, so the
 * positions (phrases) and lexemes are those FTS5 sees in the same text.
 */
export function tsVector(terms: string): string {
  const positions = new Map<string, number[]>();
  terms
    .split(' ')
    .filter(Boolean)
    .forEach((stem, i) => {
      const at = Math.min(i + 1, TS_MAX_POSITION);
      const list = positions.get(stem);
      if (!list) positions.set(stem, [at]);
      else if (list[list.length - 1] !== at) list.push(at);
    });
  return [...positions].map(([stem, at]) => `'${stem}':${at.join(',')}`).join(' ');
}

/**
 * A message's sender, chat, kind and time as terms of its index document (`_s_…`, `_c_…`, `_t_image`, and its UTC
 * year, month and day: `_y_2026`, `_m_202611`, `_d_20261127`), after its words: a filtered search intersects them with
 * the words inside the index instead of walking every match of the words and testing each row (bench/README.md
 * «Filtered queries»). `_` never occurs in a stem, so nothing a user types, not even a prefix, reaches them.
 */
export function filterTerms(m: {
  senderId: string | null;
  conversationId: string;
  type: string;
  createdAt: string | null;
}): string {
  const terms = [filterTerm('c', m.conversationId), filterTerm('t', m.type)];
  if (m.senderId) terms.push(filterTerm('s', m.senderId));
  const at = m.createdAt ? new Date(m.createdAt) : null;
  if (at && !Number.isNaN(at.getTime())) terms.push(yearTerm(at), monthTerm(at), dayTerm(at));
  return terms.join(' ');
}

export function filterTerm(kind: 's' | 'c' | 't', value: string): string {
  return `_${kind}_${value.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

const pad = (n: number) => String(n).padStart(2, '0');
const yearTerm = (d: Date) => `_y_${d.getUTCFullYear()}`;
const monthTerm = (d: Date) => `_m_${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}`;
const dayTerm = (d: Date) => `_d_${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;

/** No message is older than this (a history import's oldest is years after it). */
const TIME_FLOOR = Date.UTC(1970, 0, 1);
/** Past this many terms the range is left to the row condition alone. */
const TIME_TERMS_MAX = 120;

/**
 * The time terms whose union holds every message written in [since, until) (ISO instants, either open): whole years,
 * whole months, and days at the edges, as few as cover it — at most about 80 for a range of any length. The UTC days
 * at the edges may reach past the range (a day in the user's zone is not a UTC day); the row condition stays exact.
 * Null when there is no range, or it would take more than TIME_TERMS_MAX terms.
 */
export function timeTerms(since: string | undefined, until: string | undefined, now: number): string[] | null {
  if (since === undefined && until === undefined) return null;
  const DAY = 86_400_000;
  const lo = Math.max(TIME_FLOOR, since === undefined ? TIME_FLOOR : Date.parse(since));
  // Open above: a year past now covers clocks that differ between servers.
  const hi = until === undefined ? now + 366 * DAY : Date.parse(until) - 1;
  if (Number.isNaN(lo) || Number.isNaN(hi) || hi < lo) return null;
  const first = new Date(lo);
  const last = new Date(hi);
  const lastDay = Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), last.getUTCDate());
  const terms: string[] = [];
  let d = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate()));
  while (d.getTime() <= lastDay) {
    if (terms.length >= TIME_TERMS_MAX) return null;
    const y = d.getUTCFullYear();
    const m = d.getUTCMonth();
    const yearEnd = Date.UTC(y + 1, 0, 1);
    const monthEnd = Date.UTC(y, m + 1, 1);
    if (d.getUTCDate() === 1 && m === 0 && yearEnd - DAY <= lastDay) {
      terms.push(yearTerm(d));
      d = new Date(yearEnd);
    } else if (d.getUTCDate() === 1 && monthEnd - DAY <= lastDay) {
      terms.push(monthTerm(d));
      d = new Date(monthEnd);
    } else {
      terms.push(dayTerm(d));
      d = new Date(d.getTime() + DAY);
    }
  }
  return terms;
}

/** A message's index document: its stems, then its filter terms. */
export const indexDocument = (stems: string, filters: string) => (stems ? `${stems} ${filters}` : filters);
