// A message's text with its links (src/features/conversation/ui/linkify.ts): React renders every part as text, so markup in a
// message shows as typed; links open in a new tab without telling the target where they came from. The linkifier
// (linkify-it, ≈ 4 KB gzip) loads on demand with the first text that may hold a link, so it stays out of the chats
// page's initial JavaScript; until it is there the text shows as plain text.
import { memo, useEffect, useState } from 'react';
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

function MessageTextView({ text }: { text: string }) {
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
          s.text
        ),
      )}
    </p>
  );
}

export const MessageText = memo(MessageTextView);
