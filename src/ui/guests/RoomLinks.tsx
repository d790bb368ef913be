// A named room's own guest links beside its call on /calls (docs/behaviour.md §10.40): folded until asked for, so
// the list is read when opened and shows the links made from the door since.
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useSessionRef } from '../app/RuntimeContext';
import { CallLinksSection } from './CallLinks';

export function RoomLinks(props: { room: string }) {
  const [open, setOpen] = useState(false);
  const me = useSelector(useSessionRef(), (s) => s.context.session?.user.id ?? '');
  return (
    <details className="guest-door-links" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Мои ссылки в эту комнату</summary>
      {open && <CallLinksSection key={props.room} room={props.room} me={me} manage={false} group={false} />}
    </details>
  );
}
