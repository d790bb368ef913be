// The /calls page actor's protocol (registry line 'callsPage'): the events it accepts from the page and the
// conference. Views import this module, never callsPage.machine.ts.
import type { CallHistoryEntry } from '../../../contract/api';
import type { MachineRef } from '../../shared/machine-ref';
import type { InsecurePage, MediaProblem } from '../../shared/secure-context.protocol';
import type { PromiseActorLogic } from 'xstate';

export type { CallHistoryEntry } from '../../../contract/api';

export const DEFAULT_ROOM = 'demo-room';
export const DEFAULT_GUEST_NAME = 'guest';
export const ROOM_FAILED = 'Не удалось подключиться к комнате';
export const HISTORY_FAILED = 'Не удалось загрузить историю звонков';

export interface RoomAccess {
  token: string;
  url: string;
}

export interface CallsPageContext {
  room: string;
  /** Who joins (the signed-in user's name, else 'guest'), kept while the microphone and camera are checked. */
  participantName: string;
  access: RoomAccess | null;
  /** Why the last join failed or the room dropped (Russian, never the library's English). */
  error: string | null;
  /**
   * Set when the last join could not start because the page is not a secure context (plain http): the form says
   * calls need the https address, linked when the server knows it. Shown instead of `error`.
   */
  insecure: InsecurePage | null;
  /** The video server address shown on the page. */
  serverUrl: string | null;
  /** The user's calls, newest first (null until the first answer). */
  history: CallHistoryEntry[] | null;
  historyError: string | null;
}

export type CallsPageEvent =
  | { type: 'room.join'; room: string; name: string }
  /** The conference disconnected (the user left, or the server closed the room). */
  | { type: 'room.left' }
  /**
   * The conference could not connect, e.g. the library's 'no livekit url provided'; `name` is the error's (a
   * device error by its DOMException name). The form shows it in Russian.
   */
  | { type: 'room.failed'; message: string; name?: string }
  /** Ask for the call history again (after a failure). */
  | { type: 'history.retry' }
  /** Call back from a row of the history: the conversation opens and the call starts. */
  | { type: 'history.callBack'; conversationId: string; video: boolean };

export type CallsPageRef = MachineRef<CallsPageContext, CallsPageEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/calls/calls-page.effects.ts). */
export interface CallsPageEffects {
  /** POST /api/livekit/token; rejects with an Error whose message is the server's (Russian) reason. */
  fetchToken: PromiseActorLogic<RoomAccess, { room: string; participantName: string }>;
  /** The video server's address as the server hands it out (null when unknown). */
  serverAddress: PromiseActorLogic<string | null>;
  /** GET /api/calls: the newest calls. */
  loadHistory: PromiseActorLogic<CallHistoryEntry[], unknown>;
  /**
   * The microphone and camera before anything is connected: null when they can be had, else why not
   * (services/app/secure-context.ts: a page over plain http, refused, none).
   */
  checkMedia: PromiseActorLogic<MediaProblem | null, { video: boolean }>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface OwnedActors {
    /** The /calls page (spawned while it is shown). */
    callsPage: CallsPageRef;
  }
}
