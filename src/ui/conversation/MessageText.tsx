// A message's text with its links (src/ui/conversation/linkify.ts): React renders every part as text, so markup in a
// message shows as typed; links open in a new tab without telling the target where they came from. The linkifier
// (linkify-it, ≈ 4 KB gzip) loads on demand with the first text that may hold a link, so it stays out of the chats
// page's initial JavaScript; until it is there the text shows as plain text.
import { type JSX, memo, useEffect, useState } from 'react';
import type { TextSegment } from './linkify';

export const LINK_REL = 'noopener noreferrer nofollow';

type Linker = (text: string) => TextSegment[];
let linker: Linker | null = null;
let loading: Promise<Linker> | null = null;
const loadLinker = () => {
  loading ??= import('./linkify').then((m) => {
    linker = m.linkSegments;
    return m.linkSegments;
  });
  return loading;
};

/** A text with a dot or a colon may hold an address; others never load the linkifier. */
const mayLink = (text: string) => /[.:]/.test(text);

/** A plain part of the text with its «@name» mentions marked (the user's own in a style of its own). */
function withMentions(text: string, mentions: readonly { name: string; me: boolean }[] | undefined, key: number) {
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

function MessageTextView({ text, mentions }: { text: string; mentions?: { name: string; me: boolean }[] }) {
  const [link, setLink] = useState<Linker | null>(() => linker);
  useEffect(() => {
    if (link || !mayLink(text)) return;
    let alive = true;
    void loadLinker().then((l) => {
      if (alive) setLink(() => l);
    });
    return () => {
      alive = false;
    };
  }, [link, text]);
  const segments: TextSegment[] = link && mayLink(text) ? link(text) : [{ kind: 'text', text }];
  return (
    <p className="msg-text">
      {segments.map((s, i) =>
        s.kind === 'link' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one text never move
          <a key={i} href={s.href} target="_blank" rel={LINK_REL} className="msg-link">
            {s.text}
          </a>
        ) : (
          withMentions(s.text, mentions, i)
        ),
      )}
    </p>
  );
}

export const MessageText = memo(MessageTextView);
