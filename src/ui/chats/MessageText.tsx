// A message's text with its links (src/ui/chats/linkify.ts): React renders every part as text, so markup in a
// message shows as typed; links open in a new tab without telling the target where they came from.
import { memo } from 'react';
import { linkSegments } from './linkify';

export const LINK_REL = 'noopener noreferrer nofollow';

function MessageTextView({ text }: { text: string }) {
  return (
    <p className="msg-text">
      {linkSegments(text).map((s, i) =>
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
