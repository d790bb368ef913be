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
 * A message's sender, chat and kind as terms of its index document (`_s_…`, `_c_…`, `_t_image`), after its words: a
 * filtered search intersects them with the words inside the index instead of walking every match of the words and
 * testing each row (bench/README.md «Filtered queries»). `_` never occurs in a stem, so nothing a user types, not
 * even a prefix, reaches them. A date is a span of seqs instead (message-days.ts); documents written under migration
 * 052 also hold their year, month and day (`_y_2026`, `_m_202611`, `_d_20261127`), which no query reads.
 */
export function filterTerms(m: { senderId: string | null; conversationId: string; type: string }): string {
  const terms = [filterTerm('c', m.conversationId), filterTerm('t', m.type)];
  if (m.senderId) terms.push(filterTerm('s', m.senderId));
  return terms.join(' ');
}

export function filterTerm(kind: 's' | 'c' | 't', value: string): string {
  return `_${kind}_${value.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

/** A message's index document: its stems, then its filter terms. */
export const indexDocument = (stems: string, filters: string) => (stems ? `${stems} ${filters}` : filters);
