import { useSelector } from '@xstate/react';
import { selectPing } from '../../machines/connectivity/connectivity.machine';
import { useConnectivityRef, useRealtimeRef, useSessionRef } from '../RuntimeContext';

/** The shared layout's view: who is signed in, the connectivity ping, the socket state, sign-out. */
export function useAppLayout() {
  const session = useSessionRef();
  const displayName = useSelector(session, (s) => s.context.session?.user.displayName ?? '');
  const eblid = useSelector(session, (s) => s.context.session?.user.eblid ?? '');
  const ping = useSelector(useConnectivityRef(), selectPing, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const live = useSelector(useRealtimeRef(), (s) => s.hasTag('live'));
  return {
    displayName,
    eblid,
    ping,
    live,
    signOut: () => session.send({ type: 'session.signOut' }),
  };
}
