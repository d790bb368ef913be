// The guest's socket (namespace /guest, docs/behaviour.md §10.40): opened with the knock's id and secret, it hears
// only `guest:state`, first right after connecting and then on each change. Reconnects as socket.io does; a refused
// handshake (the knock is over) is reported as the link gone.
import { io } from 'socket.io-client';
import { GUEST_NAMESPACE, KNOCK_STATES, type KnockState } from '../../contract/guest-rules';
import { defaultSocketUrl } from '../realtime/socket';

const STATES: readonly string[] = KNOCK_STATES;

/**
 * Opens the door; `onState` hears each state (with `sealed`, the call key sealed to the guest, when a secret chat's
 * call let them in), `onKey` each newer key sealed likewise; the returned function closes it.
 */
export function openGuestDoor(
  knock: { knockId: string; secret: string },
  onState: (state: KnockState, sealed?: string) => void,
  url: string = defaultSocketUrl(),
  onKey: (sealed: string) => void = () => {},
): () => void {
  const socket = io(`${url}${GUEST_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { knockId: knock.knockId, secret: knock.secret },
  });
  socket.on('guest:state', (payload: { state?: unknown; sealed?: unknown }) => {
    if (typeof payload?.state !== 'string' || !STATES.includes(payload.state)) return;
    if (typeof payload.sealed === 'string') onState(payload.state as KnockState, payload.sealed);
    else onState(payload.state as KnockState);
  });
  socket.on('guest:key', (payload: { sealed?: unknown }) => {
    if (typeof payload?.sealed === 'string') onKey(payload.sealed);
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
