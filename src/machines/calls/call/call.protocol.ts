// The call actor's protocol (systemId 'call'): the events it accepts (the chats header's start, the incoming-call
// dialog, the overlay, server events) and the notices it shows. Peers and views import this module, never
// call.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';

export interface CallPeer {
  id: string;
  name: string;
  /** Their picture, when they have one (the incoming-call dialog shows it). */
  avatarUrl?: string | null;
}

/** Call invitation (docs/behaviour.md §3): conversationId, from, video. */
export interface IncomingCall {
  conversationId: string;
  from: CallPeer;
  video: boolean;
}

export interface RoomAccess {
  token: string;
  url: string;
}

/** Call state (docs/behaviour.md §3) plus what the overlay needs. */
export interface CallContext {
  incoming: IncomingCall | null;
  activeConvId: string | null;
  initialVideo: boolean;
  initialAudio: boolean;
  /** Token and url for the conversation's room; null until the token request answers. */
  access: RoomAccess | null;
  /** Why the last call ended without the user ending it (Russian, shown until dismissed). */
  notice: string | null;
  /** The signed-in user's id while ringing: own tabs' answers stop this tab's ring. */
  me: string | null;
}

export const CALL_NOTICES = {
  declined: 'Собеседник отклонил звонок',
  noAnswer: 'Собеседник не ответил',
  tokenFailed: 'Не удалось подключиться к звонку',
  inviteFailed: 'Не удалось позвонить',
} as const;

/** Server events as the call actor's own events. */
export type CallRemoteEvent =
  | { type: 'call.startIncoming'; conversationId: string; from: CallPeer; video: boolean }
  | { type: 'call.remoteAccepted'; conversationId: string; from: CallPeer; video: boolean }
  | { type: 'call.remoteDeclined'; conversationId: string; from: CallPeer }
  | { type: 'call.remoteEnded'; conversationId: string; from: CallPeer };

export type CallEvent =
  /** From the chats header's 'Позвонить' / 'Позвонить с видео'. */
  | { type: 'call.startOutgoing'; conversationId: string; video: boolean }
  | { type: 'call.accept'; video: boolean }
  | { type: 'call.decline' }
  /** The user closes the call view (leave button, close, cancel while ringing). */
  | { type: 'call.end' }
  /** The conference could not connect (e.g. the library's 'no livekit url provided'). */
  | { type: 'call.failed'; message: string }
  | { type: 'call.dismissNotice' }
  /** The session's sign-in and sign-out (watchSignedInUser): signing out hangs up. */
  | { type: 'call.signedIn'; userId: string }
  | { type: 'call.signedOut' }
  | CallRemoteEvent;

export type CallRef = MachineRef<CallContext, CallEvent>;

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    call: CallRef;
  }
}
