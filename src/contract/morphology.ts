// Words as the search index sees them. Both databases store and query the output of this module (SQLite's
// FTS5 through a SQL function, PostgreSQL as a tsvector built here), so they match the same messages; the
// browser's local index of secret chats (src/services/secretChats/crypto/search-index.ts, in the crypto worker,
// loaded on demand) reads words with the same code. Pure: no I/O, the stemmers are plain functions.
//
// A word is a run of letters and digits. It is compared folded — NFC, lower case, ё as е, combining marks
// dropped — and then stemmed with Snowball (the algorithm of PostgreSQL's `russian` and `english`
// configurations): Cyrillic words with the Russian stemmer, Latin ones with the English. Stop words are kept:
// a short message may consist of nothing else.
import snowball from 'snowball-stemmers';

/** Runs of letters, digits and combining marks in original text (marks stay with their letter). */
const WORD_IN_TEXT = /[\p{L}\p{N}\p{M}]+/gu;
const WORD = /[\p{L}\p{N}]+/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /[a-z]/;
/** Longer runs (a pasted hash, a long URL fragment) are indexed by their beginning. */
const MAX_WORD = 64;

const russian = snowball.newStemmer('russian');
const english = snowball.newStemmer('english');

/** Stems of recent words: messages repeat words, and stemming is most of the work of indexing one. */
const STEM_CACHE_SIZE = 20_000;
const stemCache = new Map<string, string>();
/** The stems of recent runs as they appear in text (before folding), so a repeated word costs one lookup. */
const runCache = new Map<string, string[]>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= STEM_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/** Lower case, NFC, ё → е, no combining marks; may split a run into several words (say, a mark between letters). */
export function foldWord(raw: string): string[] {
  const folded = raw.normalize('NFC').toLowerCase().replace(/ё/g, 'е').replace(/\p{M}/gu, '');
  return folded.match(WORD)?.map((w) => w.slice(0, MAX_WORD)) ?? [];
}

/** The stem of one folded word. */
export function stemWord(word: string): string {
  const known = stemCache.get(word);
  if (known !== undefined) return known;
  const stem = CYRILLIC.test(word) ? russian.stem(word) : LATIN.test(word) ? english.stem(word) : word;
  // A stemmer may only ever shorten or respell a word's ending; it never yields an empty term.
  return remember(stemCache, word, stem || word);
}

export interface Token {
  /** [start, end) of the run in the original text. */
  start: number;
  end: number;
  stem: string;
}

/** Every word of `text` with its place in the original string (for highlights) and its stem. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD_IN_TEXT)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    const stems = runCache.get(m[0]) ?? remember(runCache, m[0], foldWord(m[0]).map(stemWord));
    for (const stem of stems) out.push({ start, end, stem });
  }
  return out;
}

/** The stems of a text in order, separated by spaces: what the index holds for a message. */
export function indexTerms(text: string): string {
  return tokenize(text)
    .map((t) => t.stem)
    .join(' ');
}

/** A message's searchable text: its own text and the names of its files. */
export function searchDocument(content: string, fileNames: string | null | undefined): string {
  return fileNames ? `${content}\n${fileNames}` : content;
}

/** One condition of a query; all of a query's conditions must hold. */
export type QueryPart =
  | { kind: 'word'; stem: string; prefix: boolean }
  /** Stems that must follow one another, in this order. */
  | { kind: 'phrase'; stems: string[] };

/** The shortest last word that also matches as a prefix (one letter would match most of the index). */
export const PREFIX_MIN = 2;

/**
 * Reads a query typed by a person: words (all must match, in any order) and "phrases in quotes" (in order).
 * Nothing else is syntax — `*`, `-`, `(`, `:`, NEAR and the like are punctuation or plain words. The last
 * word also matches as a prefix while it is being typed (the query does not end with a space or a quote).
 */
export function parseQuery(q: string): QueryPart[] {
  const parts: QueryPart[] = [];
  const words = (s: string) => tokenize(s).map((t) => t.stem);
  // Only paired quotes make phrases; a lone quote is punctuation.
  const segments = q.split('"');
  const paired = segments.length % 2 === 1 ? segments.length : segments.length - 1;
  let lastWord: Extract<QueryPart, { kind: 'word' }> | null = null;
  segments.forEach((segment, i) => {
    const inPhrase = i % 2 === 1 && i < paired;
    const stems = words(segment);
    if (inPhrase) {
      if (stems.length > 1) parts.push({ kind: 'phrase', stems });
      else if (stems.length === 1) parts.push({ kind: 'word', stem: stems[0] as string, prefix: false });
      lastWord = null;
      return;
    }
    for (const stem of stems) {
      lastWord = { kind: 'word', stem, prefix: false };
      parts.push(lastWord);
    }
  });
  const endsInWord = /[\p{L}\p{N}\p{M}]$/u.test(q);
  const last = lastWord as Extract<QueryPart, { kind: 'word' }> | null;
  if (last && endsInWord && parts[parts.length - 1] === last && last.stem.length >= PREFIX_MIN) last.prefix = true;
  return dedupe(parts);
}

/** The same word twice is one condition (a prefix and an exact form of it: the exact one is stricter). */
function dedupe(parts: QueryPart[]): QueryPart[] {
  const seen = new Set<string>();
  return parts.filter((p) => {
    const key = p.kind === 'word' ? `${p.prefix ? '*' : '='}${p.stem}` : `"${p.stems.join(' ')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a stem of the text satisfies a word of the query (for highlights). */
export function stemMatches(part: Extract<QueryPart, { kind: 'word' }>, stem: string): boolean {
  return part.prefix ? stem.startsWith(part.stem) : stem === part.stem;
}
