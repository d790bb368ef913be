// The call actor's protocol (systemId 'call'): the events it accepts (the chats header's start, the incoming-call
// dialog, the overlay, server events) and the notices it shows. Peers and views import this module, never
// call.machine.ts.
import type { CallbackActorLogic, EventObject, PromiseActorLogic } from 'xstate';
import type { MachineRef } from '../../shared/machine-ref';
import type { InsecurePage, MediaProblem } from '../../shared/secure-context.protocol';

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
  /** A group's call (docs/calls.md "Group calls"): answering joins it, declining stops only my own ringing. */
  group?: boolean;
}

/**
 * A group's call (docs/calls.md "Group calls"): 'start' opens it (or joins the one on), 'join' joins it from the
 * call bar or an answered ring. Hanging up then leaves it; «Завершить для всех» ends it for everyone.
 */
export type GroupCallMode = 'start' | 'join';

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
  /**
   * Set when the last call could not start because the page is not a secure context (plain http): the view says
   * calls need the https address, linked when the server knows it. Shown instead of `notice` until dismissed.
   */
  insecure: InsecurePage | null;
  /** The open call is a group's (absent or null: a direct call). */
  group?: GroupCallMode | null;
  /**
   * «Шумоподавление» in the call's «Настройки»: on unless switched off; the choice holds for the next calls until
   * sign-out. The conference applies it to the microphone (docs/calls.md "Noise suppression").
   */
  noiseSuppression: boolean;
  /** Whether the microphone goes through the suppressor now, as the conference reports it. */
  noiseRunning: boolean;
}

export const CALL_NOTICES = {
  declined: 'Собеседник отклонил звонок',
  noAnswer: 'Собеседник не ответил',
  tokenFailed: 'Не удалось подключиться к звонку',
  inviteFailed: 'Не удалось позвонить',
  mediaDenied: 'Доступ к микрофону или камере запрещён. Разрешите его в настройках браузера, чтобы звонить',
  mediaMissing: 'Микрофон или камера не найдены. Подключите устройство и попробуйте снова',
  mediaBusy: 'Микрофон или камера заняты другой программой',
  mediaUnsupported: 'Этот браузер не умеет звонить',
  mediaFailed: 'Не удалось включить микрофон или камеру',
  /** An owner or admin of the group took me out of its call; «Присоединиться» brings me back. */
  removed: 'Вас удалили из звонка',
} as const;

/** The notice for a microphone/camera that could not be had (the insecure page has its own sentence). */
export function mediaNotice(problem: Exclude<MediaProblem, { kind: 'insecure' }>): string {
  switch (problem.kind) {
    case 'denied':
      return CALL_NOTICES.mediaDenied;
    case 'missing':
      return CALL_NOTICES.mediaMissing;
    case 'busy':
      return CALL_NOTICES.mediaBusy;
    case 'unsupported':
      return CALL_NOTICES.mediaUnsupported;
    default:
      return CALL_NOTICES.mediaFailed;
  }
}

const MEDIA_ERRORS: Record<string, Exclude<MediaProblem, { kind: 'insecure' }>> = {
  NotAllowedError: { kind: 'denied' },
  SecurityError: { kind: 'denied' },
  NotFoundError: { kind: 'missing' },
  OverconstrainedError: { kind: 'missing' },
  NotReadableError: { kind: 'busy' },
};

/**
 * What the user reads when the conference fails: a media error by its name, a Russian reason as it is, anything
 * else (the library's English messages) as `fallback` («Не удалось подключиться к звонку» unless told) — never raw
 * English.
 */
export function failureNotice(
  failure: { name?: string; message: string },
  fallback: string = CALL_NOTICES.tokenFailed,
): string {
  const media = failure.name ? MEDIA_ERRORS[failure.name] : undefined;
  if (media) return mediaNotice(media);
  if (/getUserMedia|mediaDevices/.test(failure.message)) return CALL_NOTICES.mediaUnsupported;
  return /[а-яё]/i.test(failure.message) ? failure.message : fallback;
}

/** Server events as the call actor's own events. */
export type CallRemoteEvent =
  | { type: 'call.startIncoming'; conversationId: string; from: CallPeer; video: boolean; group?: boolean }
  | { type: 'call.remoteAccepted'; conversationId: string; from: CallPeer; video: boolean }
  | { type: 'call.remoteDeclined'; conversationId: string; from: CallPeer }
  | { type: 'call.remoteEnded'; conversationId: string; from: CallPeer }
  /** An owner or admin of the group took me out of its call (groupCall:removed). */
  | { type: 'call.removed'; conversationId: string }
  /** The realtime socket connected again (a group's call takes its place in the call again). */
  | { type: 'call.reconnected' };

export type CallEvent =
  /** From the chats header's 'Позвонить' / 'Позвонить с видео'. */
  | { type: 'call.startOutgoing'; conversationId: string; video: boolean; group?: GroupCallMode }
  | { type: 'call.accept'; video: boolean }
  | { type: 'call.decline' }
  /**
   * The user closes the call view (leave button, close, cancel while ringing). A group's call is left; `all`:
   * «Завершить для всех» (its owner and admins; the server checks) ends it for everyone.
   */
  | { type: 'call.end'; all?: true }
  /** The conference could not connect (e.g. the library's 'no livekit url provided'); `name` is the error's. */
  | { type: 'call.failed'; message: string; name?: string }
  | { type: 'call.dismissNotice' }
  /** «Шумоподавление» switched on or off in the call's «Настройки». */
  | { type: 'call.noiseSuppression'; on: boolean }
  /** The conference: the microphone now goes (or no longer goes) through the suppressor. */
  | { type: 'call.noiseRunning'; running: boolean }
  /** The session's sign-in and sign-out (watchSignedInUser): signing out hangs up. */
  | { type: 'call.signedIn'; userId: string }
  | { type: 'call.signedOut' }
  | CallRemoteEvent;

export type CallRef = MachineRef<CallContext, CallEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/calls/calls.effects.ts). */
export interface CallEffects {
  /** POST /api/livekit/token for the room. */
  fetchToken: PromiseActorLogic<RoomAccess, { room: string }>;
  /** The microphone (and camera for a video call): null when they can be had, else why not. */
  checkMedia: PromiseActorLogic<MediaProblem | null, { video: boolean }>;
  /** The looping ring of an incoming call (silent until provided). */
  ring: CallbackActorLogic<EventObject>;
  /** The caller's ring-back while waiting for an answer (silent until provided). */
  ringback: CallbackActorLogic<EventObject>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    call: CallRef;
  }
}
