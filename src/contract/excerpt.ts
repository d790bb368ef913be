// The snippet of a search result: plain text around the first word that matched, with the ranges of every
// matching word in it. The client draws the marks; no markup comes from the server.
import { type QueryPart, stemMatches, tokenize } from './morphology';

/** Characters of context kept before the first match, and the snippet's greatest length. */
const BEFORE_MATCH = 40;
const SNIPPET_MAX = 160;
const ELLIPSIS = '…';

export interface Excerpt {
  snippet: string;
  highlights: [number, number][];
}

/** The stems that a word of the text must equal (or, for a prefix, start with) to be marked. */
function matcher(parts: readonly QueryPart[]): (stem: string) => boolean {
  const words = parts.flatMap((p) =>
    p.kind === 'word' ? [p] : p.stems.map((stem) => ({ kind: 'word' as const, stem, prefix: false })),
  );
  return (stem) => words.some((w) => stemMatches(w, stem));
}

/** The excerpt of `text` around its first match, or null when no word of it matches. */
export function excerptOf(text: string, parts: readonly QueryPart[]): Excerpt | null {
  const matches = matcher(parts);
  const hits = tokenize(text).filter((t) => matches(t.stem));
  const first = hits[0];
  if (!first) return null;
  let start = 0;
  if (first.start > BEFORE_MATCH) {
    // Start at a word boundary a little before the match.
    const space = text.slice(first.start - BEFORE_MATCH, first.start).search(/\s/);
    start = space >= 0 ? first.start - BEFORE_MATCH + space + 1 : first.start - BEFORE_MATCH;
  }
  let end = Math.min(text.length, start + SNIPPET_MAX);
  if (end < text.length) {
    const space = text.slice(first.end, end).lastIndexOf(' ');
    if (space > 0) end = first.end + space;
  }
  const lead = start > 0 ? ELLIPSIS : '';
  // Line breaks become spaces one for one, so the offsets stay valid.
  const snippet = lead + text.slice(start, end).replace(/[\r\n\t]/g, ' ') + (end < text.length ? ELLIPSIS : '');
  const shift = lead.length - start;
  const highlights: [number, number][] = [];
  for (const h of hits) {
    if (h.start < start || h.end > end) continue;
    const last = highlights[highlights.length - 1];
    // One run split into several words (a rare mark between letters) is one range.
    if (last && last[0] === h.start + shift) continue;
    highlights.push([h.start + shift, h.end + shift]);
  }
  return { snippet, highlights };
}

/** A message's excerpt: from its text, else from the first file name that matched, else its text's beginning. */
export function messageExcerpt(content: string, fileNames: readonly string[], parts: readonly QueryPart[]): Excerpt {
  for (const text of [content, ...fileNames]) {
    const found = excerptOf(text, parts);
    if (found) return found;
  }
  const snippet = content.length > SNIPPET_MAX ? content.slice(0, SNIPPET_MAX) + ELLIPSIS : content;
  return { snippet: snippet.replace(/[\r\n\t]/g, ' '), highlights: [] };
}
