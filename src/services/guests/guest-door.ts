// The guest's socket (namespace /guest, docs/behaviour.md §10.40): opened with the knock's id and secret, it hears
// only `guest:state`, first right after connecting and then on each change. Reconnects as socket.io does; a refused
// handshake (the knock is over) is reported as the link gone.
import { io } from 'socket.io-client';
import { GUEST_NAMESPACE, KNOCK_STATES, type KnockState } from '../../contract/guest-rules';
import { defaultSocketUrl } from '../realtime/socket';

const STATES: readonly string[] = KNOCK_STATES;

/** Opens the door; `onState` hears each state; the returned function closes it. */
export function openGuestDoor(
  knock: { knockId: string; secret: string },
  onState: (state: KnockState) => void,
  url: string = defaultSocketUrl(),
): () => void {
  const socket = io(`${url}${GUEST_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { knockId: knock.knockId, secret: knock.secret },
  });
  socket.on('guest:state', (payload: { state?: unknown }) => {
    if (typeof payload?.state === 'string' && STATES.includes(payload.state)) onState(payload.state as KnockState);
  });
  // The server refuses the handshake only when the knock is over (removed, turned away, the link dead).
  socket.on('connect_error', (err) => {
    if (err.message === 'Ссылка недействительна') {
      socket.close();
      onState('gone');
    }
  });
  return () => {
    socket.close();
  };
}
