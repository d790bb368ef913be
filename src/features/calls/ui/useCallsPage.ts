import { useSelector } from '@xstate/react';
import { DEFAULT_GUEST_NAME } from '../machines/callsPage/callsPage.protocol';
import { useSessionRef, useSystemActor } from '../../../core/ui/RuntimeContext';

/** The /calls page's view of the `callsPage` actor. */
export function useCallsPage() {
  const page = useSystemActor('callsPage')!;
  const session = useSessionRef();
  const name = useSelector(session, (s) => s.context.session?.user.displayName ?? '');
  const inRoom = useSelector(page, (s) => s.hasTag('inRoom'));
  const busy = useSelector(page, (s) => s.hasTag('busy'));
  const room = useSelector(page, (s) => s.context.room);
  const access = useSelector(page, (s) => s.context.access);
  const error = useSelector(page, (s) => s.context.error);
  const serverUrl = useSelector(page, (s) => s.context.serverUrl);
  return {
    room,
    busy,
    error,
    serverUrl,
    access: inRoom ? access : null,
    join: (roomName: string) => page.send({ type: 'room.join', room: roomName, name: name || DEFAULT_GUEST_NAME }),
    left: () => page.send({ type: 'room.left' }),
    failed: (message: string) => page.send({ type: 'room.failed', message }),
  };
}
