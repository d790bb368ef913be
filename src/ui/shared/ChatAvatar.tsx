// A conversation's or person's avatar: an uploaded picture, an emoji (`emoji:<char>`) or initials on a colour
// from the id's hash, with an optional presence dot (green online, amber away, grey offline). Styles: avatar.css,
// loaded with the first bundle (src/main.tsx).
import { useState } from 'react';
import type { AvatarView } from '../../contract/format';

const DOT_LABEL = { online: 'в сети', away: 'отошел', offline: 'не в сети' } as const;

export function ChatAvatar(props: { avatar: AvatarView; size?: number }) {
  const { face, colour, presence } = props.avatar;
  const size = props.size ?? 44;
  const [broken, setBroken] = useState(false);
  return (
    <span
      className="chat-avatar"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.38) }}
      aria-hidden="true"
    >
      {face.kind === 'image' && !broken ? (
        <img src={face.url} alt="" width={size} height={size} onError={() => setBroken(true)} />
      ) : face.kind === 'emoji' ? (
        <span className="chat-avatar-face chat-avatar-emoji" style={{ fontSize: Math.round(size * 0.55) }}>
          {face.emoji}
        </span>
      ) : (
        <span className="chat-avatar-face" style={{ background: colour }}>
          {face.kind === 'initials' ? face.text : '?'}
        </span>
      )}
      {presence && (
        <i className={`chat-presence chat-presence-${presence}`} data-presence={presence} title={DOT_LABEL[presence]} />
      )}
    </span>
  );
}
