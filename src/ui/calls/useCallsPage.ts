import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { DEFAULT_GUEST_NAME, DEFAULT_ROOM } from '../../machines/calls/callsPage/callsPage.protocol';
import { useSessionRef } from '../app/RuntimeContext';
import { useOwnedActor } from '../app/useOwnedActor';
import { useChatEntries } from '../shared/useChatList';
import { callHistoryRows } from './call-history';

/** The /calls page's view of the `callsPage` actor, which lives while the page is shown. */
export function useCallsPage() {
  const page = useOwnedActor('callsPage');
  const session = useSessionRef();
  const name = useSelector(session, (s) => s.context.session?.user.displayName ?? '');
  const inRoom = useSelector(page, (s) => s?.hasTag('inRoom') ?? false);
  const busy = useSelector(page, (s) => s?.hasTag('busy') ?? false);
  const room = useSelector(page, (s) => s?.context.room ?? DEFAULT_ROOM);
  const access = useSelector(page, (s) => s?.context.access ?? null);
  const error = useSelector(page, (s) => s?.context.error ?? null);
  const insecure = useSelector(page, (s) => s?.context.insecure ?? null);
  const serverUrl = useSelector(page, (s) => s?.context.serverUrl ?? null);
  const calls = useSelector(page, (s) => s?.context.history ?? null);
  const historyError = useSelector(page, (s) => s?.context.historyError ?? null);
  // Who each call was with: the conversation as the chat list has it.
  const entries = useChatEntries();
  const me = useSelector(session, (s) => s.context.session?.user.id ?? null);
  const history = useMemo(() => (calls ? callHistoryRows(calls, entries, me, Date.now()) : null), [calls, entries, me]);
  return {
    history,
    historyError,
    retryHistory: () => page.send({ type: 'history.retry' }),
    callBack: (conversationId: string, video: boolean) =>
      page.send({ type: 'history.callBack', conversationId, video }),
    room,
    busy,
    error,
    insecure,
    serverUrl,
    access: inRoom ? access : null,
    join: (roomName: string) => page.send({ type: 'room.join', room: roomName, name: name || DEFAULT_GUEST_NAME }),
    left: () => page.send({ type: 'room.left' }),
    failed: (message: string, name?: string) => page.send({ type: 'room.failed', message, ...(name ? { name } : {}) }),
  };
}
