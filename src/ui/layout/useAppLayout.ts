import { useSelector } from '@xstate/react';
import { useConnectivityRef, useRealtimeRef, useSessionRef } from '../RuntimeContext';

/** The shared layout's view: who is signed in, the connectivity ping, the socket state, sign-out. */
export function useAppLayout() {
  const session = useSessionRef();
  const connectivity = useConnectivityRef();
  const realtime = useRealtimeRef();
  const displayName = useSelector(session, (s) => s.context.session?.user.displayName ?? '');
  const eblid = useSelector(session, (s) => s.context.session?.user.eblid ?? '');
  const latencyMs = useSelector(connectivity, (s) => s.context.latencyMs);
  const online = useSelector(connectivity, (s) => s.context.online);
  const live = useSelector(realtime, (s) => s.matches({ online: 'connected' }));
  return {
    displayName,
    eblid,
    latencyMs,
    online,
    live,
    signOut: () => session.send({ type: 'session.signOut' }),
  };
}
