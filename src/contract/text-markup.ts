// The composer's markdown-like markers (docs/behaviour.md §10.42 Formatting): what a person types becomes the plain
// text plus ranges when the message is sent, and an edited message's ranges become markers again, so formatting
// survives editing. Markers: **жирный**, __курсив__, ++подчёркнутый++, ~~зачёркнутый~~, ||спойлер||, `код`,
// ```язык⏎блок```, [текст](https://адрес), and «> » at a line's start for a quote. A marker that does not close stays
// text, an opening one must touch its text (so «2 ** 3» is arithmetic) and nothing inside code is markup.
import { checkEntities, type EntityType, entityUrl, type MessageEntity } from './message-entities';

const PAIRS: Record<string, EntityType> = {
  '**': 'bold',
  __: 'italic',
  '++': 'underline',
  '~~': 'strikethrough',
  '||': 'spoiler',
};
const MARKER_OF: Partial<Record<EntityType, string>> = Object.fromEntries(
  Object.entries(PAIRS).map(([m, t]) => [t, m]),
);
const LANGUAGE_LINE = /^[\w#+.-]{1,32}$/;
const LINK = /^\[([^[\]\n]+)\]\(([^()\s]+)\)/;
const ADDRESS = /^https?:\/\/\S+/i;

export interface Marked {
  text: string;
  entities: MessageEntity[];
}

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);

/** Inline markers of one run of text (no fences, no quote prefixes in it). */
function inline(src: string): Marked {
  // Pass 1: which markers pair up. `cut` holds the source ranges that are markup, dropped from the text.
  const cut: [number, number][] = [];
  const spans: { type: EntityType; from: number; to: number; url?: string }[] = [];
  const open: { marker: string; at: number }[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '`') {
      const j = src.indexOf('`', i + 1);
      if (j > i + 1) {
        cut.push([i, i + 1], [j, j + 1]);
        spans.push({ type: 'code', from: i + 1, to: j });
        i = j + 1;
        continue;
      }
      i += 1;
      continue;
    }
    // An address is taken as it is (a__b in a path is no italic), up to the markers that may close around it.
    if ((c === 'h' || c === 'H') && (i === 0 || /[\s(*_~|+`]/.test(src[i - 1] as string))) {
      const m = ADDRESS.exec(src.slice(i, i + 4200));
      if (m) {
        i += m[0].replace(/[*_~|+`]+$/, '').length;
        continue;
      }
    }
    if (c === '[') {
      const m = LINK.exec(src.slice(i, i + 4200));
      const url = m ? entityUrl(m[2] as string) : null;
      if (m && url) {
        const labelEnd = i + 1 + (m[1] as string).length;
        cut.push([i, i + 1], [labelEnd, i + m[0].length]);
        spans.push({ type: 'text_link', from: i + 1, to: labelEnd, url });
        i += m[0].length;
        continue;
      }
    }
    const two = src.slice(i, i + 2);
    const type = PAIRS[two];
    if (type) {
      let k = open.length - 1;
      while (k >= 0 && (open[k] as { marker: string }).marker !== two) k--;
      if (k >= 0 && !isSpace(src[i - 1]) && i > (open[k] as { at: number }).at + 2) {
        const from = (open[k] as { at: number }).at;
        // Markers opened inside it and never closed stay text.
        open.length = k;
        cut.push([from, from + 2], [i, i + 2]);
        spans.push({ type, from: from + 2, to: i });
        i += 2;
        continue;
      }
      if (!isSpace(src[i + 2])) {
        open.push({ marker: two, at: i });
        i += 2;
        continue;
      }
    }
    i += 1;
  }
  if (!cut.length) return { text: src, entities: [] };
  // Pass 2: the text without the markup, and where each source index lands in it.
  const { text, at } = withoutCuts(src, cut);
  const entities: MessageEntity[] = [];
  for (const s of spans) {
    const offset = at[s.from] as number;
    const length = (at[s.to] as number) - offset;
    if (length > 0) entities.push({ type: s.type, offset, length, ...(s.url ? { url: s.url } : {}) });
  }
  return { text, entities };
}

/** Appends a part's text and ranges (moved to where it lands) to what is built. */
function append(into: Marked, part: Marked) {
  const base = into.text.length;
  into.text += part.text;
  for (const e of part.entities) into.entities.push({ ...e, offset: e.offset + base });
}

/** Lines outside code blocks: quotes («> » at a line's start, one range for lines in a row) and inline markers. */
function lines(src: string, into: Marked) {
  const all = src.split('\n');
  let k = 0;
  while (k < all.length) {
    const quoted = (l: string) => l.startsWith('> ') || l === '>';
    const isQuote = quoted(all[k] as string);
    let end = k;
    while (end < all.length && quoted(all[end] as string) === isQuote) end++;
    const run = all.slice(k, end);
    const start = into.text.length;
    append(into, inline(isQuote ? run.map((l) => l.slice(2)).join('\n') : run.join('\n')));
    if (isQuote && into.text.length > start)
      into.entities.push({ type: 'blockquote', offset: start, length: into.text.length - start });
    if (end < all.length) into.text += '\n';
    k = end;
  }
}

/**
 * `src` without the markup's half-open ranges `cut` (non-overlapping), and where each source index (and its end) lands
 * in the result: a span's ends map through `at`.
 */
export function withoutCuts(src: string, cut: [number, number][]): { text: string; at: number[] } {
  const sorted = [...cut].sort((a, b) => a[0] - b[0]);
  const at = new Array<number>(src.length + 1);
  let text = '';
  let c = 0;
  for (let k = 0; k <= src.length; k++) {
    at[k] = text.length;
    const range = sorted[c];
    if (range && k >= range[0] && k < range[1]) {
      if (k === range[1] - 1) c += 1;
      continue;
    }
    if (k < src.length) text += src[k];
  }
  return { text, at };
}

/** The typed text with its markers turned into ranges (the markers left out of the text). */
export function parseMarkup(src: string): Marked {
  const out: Marked = { text: '', entities: [] };
  let i = 0;
  for (;;) {
    const open = src.indexOf('```', i);
    const close = open < 0 ? -1 : src.indexOf('```', open + 3);
    if (close < 0) break;
    let body = src.slice(open + 3, close);
    let language: string | undefined;
    const nl = body.indexOf('\n');
    if (nl >= 0) {
      const first = body.slice(0, nl).trim();
      if (first === '' || LANGUAGE_LINE.test(first)) {
        if (first) language = first;
        body = body.slice(nl + 1);
      }
    }
    if (body.endsWith('\n')) body = body.slice(0, -1);
    if (!body) {
      // An empty block is text as typed.
      lines(src.slice(i, close + 3), out);
      i = close + 3;
      continue;
    }
    lines(src.slice(i, open), out);
    const offset = out.text.length;
    out.text += body;
    out.entities.push({ type: 'pre', offset, length: body.length, ...(language ? { language } : {}) });
    i = close + 3;
  }
  lines(src.slice(i), out);
  if (!out.entities.length) return out;
  const checked = checkEntities(out.text, out.entities);
  // Cannot fail for what is built above; were it to, the text is sent as typed rather than refused.
  return checked.ok ? { text: out.text, entities: checked.entities } : { text: src, entities: [] };
}

/** The text with its ranges written back as markers (an edit starts from it); parseMarkup reads it back. */
export function toMarkup(
  text: string,
  entities: readonly { type: string; offset: number; length: number; url?: string; language?: string }[],
): string {
  if (!entities.length) return text;
  const sorted = [...entities].sort((a, b) => a.offset - b.offset || b.length - a.length);
  const opens = new Map<number, string[]>();
  const closes = new Map<number, string[]>();
  const add = (m: Map<number, string[]>, at: number, s: string, first = false) => {
    const l = m.get(at) ?? [];
    if (first) l.unshift(s);
    else l.push(s);
    m.set(at, l);
  };
  for (const e of sorted) {
    const end = e.offset + e.length;
    let before = '';
    let after = '';
    if (e.type === 'code') [before, after] = ['`', '`'];
    else if (e.type === 'pre') [before, after] = [`\`\`\`${e.language ?? ''}\n`, '\n```'];
    else if (e.type === 'text_link') [before, after] = ['[', `](${e.url ?? ''})`];
    else if (e.type === 'blockquote') {
      before = '> ';
      for (let q = e.offset + 1; q < end; q++) if (text[q - 1] === '\n') add(opens, q, '> ');
    } else {
      const m = MARKER_OF[e.type as EntityType];
      if (!m) continue;
      [before, after] = [m, m];
    }
    add(opens, e.offset, before);
    // The inner of two ranges ending together closes first.
    if (after) add(closes, end, after, true);
  }
  let out = '';
  for (let k = 0; k <= text.length; k++) {
    out += (closes.get(k) ?? []).join('') + (opens.get(k) ?? []).join('');
    if (k < text.length) out += text[k];
  }
  return out;
}
