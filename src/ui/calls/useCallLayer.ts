import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { CallRef } from '../../machines/calls/call/call.protocol';
import { useRealtimeRef, useSessionActor } from '../app/RuntimeContext';
import { useLateSessionActor } from '../app/useOwnedActor';
import { useChatEntry } from '../shared/useChatList';
import { preloadCallViews, serviceWorkerSettled } from './lazy-call-views';

export type CallActorRef = CallRef;

/** The call layer's view of the `call` actor: the ringing invitation, the open call, the last notice. */
export function useCallLayer() {
  // Its code comes once the chat list has painted; until then nothing rings or is open (the socket waits for it).
  const call = useLateSessionActor('call');
  const incoming = useSelector(call, (s) => (s?.hasTag('ringing') ? s.context.incoming : null));
  const open = useSelector(call, (s) => s?.hasTag('open') ?? false);
  const calling = useSelector(call, (s) => s?.hasTag('calling') ?? false);
  const access = useSelector(call, (s) => s?.context.access ?? null);
  const video = useSelector(call, (s) => s?.context.initialVideo ?? false);
  const audio = useSelector(call, (s) => s?.context.initialAudio ?? false);
  const notice = useSelector(call, (s) => s?.context.notice ?? null);
  const insecure = useSelector(call, (s) => s?.context.insecure ?? null);
  const conversationId = useSelector(call, (s) => (s?.hasTag('open') ? s.context.activeConvId : null));
  // A secret chat's call is encrypted end to end with a key of its MLS group (SecretCallOverlay).
  const session = useSessionActor('session');
  const me = useSelector(session, (s) => s.context.session?.user.id ?? null);
  const secret = useChatEntry(conversationId)?.conversation.secret === true;
  // A call can ring from the moment the realtime connection is up: its views' chunk is fetched then (lazy-call-views.ts).
  const live = useSelector(useRealtimeRef(), (s) => s.hasTag('live'));
  useEffect(() => {
    if (live) void serviceWorkerSettled().then(preloadCallViews);
  }, [live]);
  return {
    incoming,
    call: open
      ? {
          token: access?.token ?? null,
          url: access?.url ?? null,
          calling,
          video,
          audio,
          // Members may invite guests through a link (docs/behaviour.md §10.40); a secret chat's call seals its key
          // to them (docs/secret-chats.md "Guests in encrypted calls").
          ...(conversationId ? { room: `conv-${conversationId}` } : {}),
          // The overlay's chat panel is of this conversation (ConnectedCallOverlay).
          ...(conversationId ? { conversationId } : {}),
        }
      : null,
    /** Set for a secret chat's call: whose device derives the key, for which conversation. */
    secret: open && secret && me && conversationId ? { userId: me, conversationId } : null,
    notice,
    /** The last call could not start on a plain-http page: where the https one is. */
    insecure,
    accept: () => call.send({ type: 'call.accept', video: false }),
    acceptVideo: () => call.send({ type: 'call.accept', video: true }),
    decline: () => call.send({ type: 'call.decline' }),
    end: () => call.send({ type: 'call.end' }),
    fail: (message: string, name?: string) => call.send({ type: 'call.failed', message, ...(name ? { name } : {}) }),
    dismissNotice: () => call.send({ type: 'call.dismissNotice' }),
  };
}
