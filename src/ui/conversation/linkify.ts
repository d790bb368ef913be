// Links in message text: http(s) URLs and bare domains (linkify-it, with its fuzzy matching for domains without a
// scheme), as plain segments the view renders as text or <a>. Only http: and https: addresses ever become links;
// mailto:, ftp:, protocol-relative and anything else stay text, and nothing in a message is ever parsed as HTML.
import { LinkifyIt } from 'linkify-it';

export type TextSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

let linkify: LinkifyIt | null = null;
function linker(): LinkifyIt {
  if (!linkify) {
    linkify = new LinkifyIt().set({ fuzzyLink: true, fuzzyEmail: false, fuzzyIP: false });
    for (const schema of ['mailto:', 'ftp:', '//']) linkify.add(schema, null);
  }
  return linkify;
}

/** The address a link may point at: http(s) with a host, else null. */
export function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? u.href : null;
  } catch {
    return null;
  }
}

/** The text cut into plain parts and links, in order; joined back they are the text itself. */
export function linkSegments(text: string): TextSegment[] {
  const l = linker();
  const matches = l.match(text) ?? [];
  const out: TextSegment[] = [];
  let at = 0;
  for (const m of matches) {
    const href = safeHref(m.url);
    if (!href) continue;
    if (m.index > at) out.push({ kind: 'text', text: text.slice(at, m.index) });
    out.push({ kind: 'link', text: m.raw, href });
    at = m.lastIndex;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}
