// The guest's socket (namespace /guest, docs/behaviour.md §10.40): opened with the knock's id and secret, it hears
// `guest:state`, first right after connecting and then on each change, and at a secret chat's call `guest:key`.
// Reconnects as socket.io does; a refused handshake (the knock is over) is reported as the link gone. At a secret
// chat's call an `admitted` without the sealed key (heard on connecting: the socket was away when the guest was let
// in, or a newer key may have come meanwhile) asks the deciders for the current key (`guest:key-request`).
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
  encrypted = false,
): () => void {
  const socket = io(`${url}${GUEST_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { knockId: knock.knockId, secret: knock.secret },
  });
  socket.on('guest:state', (payload: { state?: unknown; sealed?: unknown }) => {
    if (typeof payload?.state !== 'string' || !STATES.includes(payload.state)) return;
    if (typeof payload.sealed === 'string') return onState(payload.state as KnockState, payload.sealed);
    // Refusals (asked too soon, no longer in) need no answer: the state that follows says what happened.
    if (encrypted && payload.state === 'admitted') socket.emit('guest:key-request', () => {});
    onState(payload.state as KnockState);
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
