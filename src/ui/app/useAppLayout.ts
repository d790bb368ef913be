import { useSelector } from '@xstate/react';
import { useLocation } from 'react-router-dom';
import { selectPing } from '../../machines/realtime/connectivity/connectivity.protocol';
import { OFFLINE_BANNER } from '../../machines/session/offlineStore/offlineStore.protocol';
import { selectReconnecting } from '../../machines/session/session/session.protocol';
import { useConnectivityRef, useRealtimeRef, useSessionRef, useSystemActor } from './RuntimeContext';

/** The shared layout's view: who is signed in, the connectivity ping, the socket state, sign-out. */
export function useAppLayout() {
  const session = useSessionRef();
  const displayName = useSelector(session, (s) => s.context.session?.user.displayName ?? '');
  const eblid = useSelector(session, (s) => s.context.session?.user.eblid ?? '');
  /** Administrators see «Администрирование» in the menu. */
  const isAdmin = useSelector(session, (s) => s.context.session?.user.role === 'admin');
  const ping = useSelector(useConnectivityRef(), selectPing, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const live = useSelector(useRealtimeRef(), (s) => s.hasTag('live'));
  /**
   * The server dropped out (a restart, a network change): the session waits for new tokens, or the socket for its
   * link. Nothing is lost meanwhile; the indicator says it is reconnecting.
   */
  const renewing = useSelector(session, selectReconnecting);
  const relinking = useSelector(useRealtimeRef(), (s) => s.hasTag('reconnecting'));
  /** Why the server closed this tab's connection for good (signed out elsewhere, too many tabs), if it did. */
  const closedMessage = useSelector(useRealtimeRef(), (s) => s.context.closedMessage);
  /** The page shows what the browser kept (no answer from the server): read-only until it answers. */
  const readOnly = useSelector(useSystemActor('offlineStore'), (s) => s?.hasTag('readOnly') ?? false);
  // An open conversation's address (/c/<id>): on a phone its header is the only bar.
  const inConversation = useLocation().pathname.startsWith('/c/');
  return {
    inConversation,
    displayName,
    eblid,
    isAdmin,
    ping,
    live,
    reconnecting: renewing || relinking,
    closedMessage,
    offlineBanner: readOnly ? OFFLINE_BANNER : null,
    signOut: () => session.send({ type: 'session.signOut' }),
  };
}
