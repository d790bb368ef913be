// A message's text with its links (src/ui/conversation/linkify.ts): React renders every part as text, so markup in a
// message shows as typed; links open in a new tab without telling the target where they came from. The linkifier
// (linkify-it, ≈ 4 KB gzip) loads on demand with the first text that may hold a link, so it stays out of the chats
// page's initial JavaScript; until it is there the text shows as plain text. A formatted text's renderer
// (./FormattedText) loads the same way, with the first message that has formatting.
import { memo, useEffect, useState } from 'react';
import type { TextEntity } from '../../contract/entities';
import type { FormattedText as Formatted } from './FormattedText';
import type { TextSegment } from './linkify';
import { LINK_REL, withMentions } from './text-parts';

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

let formatted: typeof Formatted | null = null;
let loadingFormatted: Promise<typeof Formatted> | null = null;
const loadFormatted = () => {
  loadingFormatted ??= import('./FormattedText').then((m) => {
    formatted = m.FormattedText;
    return m.FormattedText;
  });
  return loadingFormatted;
};

/** A text with a dot or a colon may hold an address; others never load the linkifier. */
const mayLink = (text: string) => /[.:]/.test(text);

function MessageTextView({
  text,
  mentions,
  entities,
}: {
  text: string;
  mentions?: { name: string; me: boolean }[];
  entities?: TextEntity[];
}) {
  const [link, setLink] = useState<Linker | null>(() => linker);
  const [Format, setFormat] = useState<typeof Formatted | null>(() => formatted);
  const hasFormat = Boolean(entities?.length);
  useEffect(() => {
    if (Format || !hasFormat) return;
    let alive = true;
    void loadFormatted().then((f) => {
      if (alive) setFormat(() => f);
    });
    return () => {
      alive = false;
    };
  }, [Format, hasFormat]);
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
  if (Format && entities?.length) return <Format text={text} entities={entities} mentions={mentions} />;
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
