// The http(s) links written in a message's text (linkify-it without fuzzy matching: a bare domain is not one), in
// order and once each: the «Ссылки» tab of «Информация» lists them (server/messages/chat-media.ts for a plain chat,
// the browser for a secret chat's decrypted texts). The link cards (server/previews/link-previews.ts) take the first.
import { LinkifyIt } from 'linkify-it';

const HTTP_SCHEME = /https?:\/\//i;
/** An address longer than this is not listed (a card is not fetched for one either). */
export const LINK_URL_MAX = 2048;

let linkify: LinkifyIt | null = null;

export function httpLinks(text: string): string[] {
  // Most texts have none and are not parsed.
  if (!HTTP_SCHEME.test(text)) return [];
  linkify ??= new LinkifyIt().set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  const out: string[] = [];
  for (const m of linkify.match(text) ?? []) {
    if (!/^https?:\/\//i.test(m.raw)) continue;
    try {
      const url = new URL(m.url);
      if (url.hostname && url.href.length <= LINK_URL_MAX && !out.includes(url.href)) out.push(url.href);
    } catch {
      /* not an address after all */
    }
  }
  return out;
}
