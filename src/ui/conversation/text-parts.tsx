// What a message's plain text and its formatted text (MessageText.tsx, FormattedText.tsx) draw alike: how links
// are opened, and «@name» mentions marked.
import type { JSX } from 'react';

export const LINK_REL = 'noopener noreferrer nofollow';

/** A plain part of the text with its «@name» mentions marked (the user's own in a style of its own). */
export function withMentions(
  text: string,
  mentions: readonly { name: string; me: boolean }[] | undefined,
  key: number | string,
) {
  if (!mentions?.length) return text;
  const names = mentions.map((m) => `@${m.name}`).sort((a, b) => b.length - a.length);
  const parts: (string | JSX.Element)[] = [];
  let rest = text;
  let n = 0;
  for (;;) {
    let at = -1;
    let hit = '';
    for (const name of names) {
      const i = rest.indexOf(name);
      if (i >= 0 && (at < 0 || i < at)) {
        at = i;
        hit = name;
      }
    }
    if (at < 0) break;
    if (at > 0) parts.push(rest.slice(0, at));
    const mine = mentions.some((m) => `@${m.name}` === hit && m.me);
    parts.push(
      <span key={`${key}-${n++}`} className={`msg-mention${mine ? ' me' : ''}`}>
        {hit}
      </span>,
    );
    rest = rest.slice(at + hit.length);
  }
  if (rest) parts.push(rest);
  return parts;
}
