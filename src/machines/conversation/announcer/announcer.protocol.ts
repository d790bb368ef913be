// The announcer's protocol (docs/behaviour.md §10.48): the app's one polite live region and its one assertive one,
// for screen readers. Its port is AnnouncerEvent: its sources (announcer-sources.ts, hearing the server, the chat
// list and the composer's outbox; a graph test sends the events itself) tell it what happened — a message in the
// open chat, someone typing there, an incoming call, an upload starting or ending — and it decides what is said and
// when: a burst of messages within ANNOUNCER_TIMINGS.burstMs is summed up, typing is said once per pause, other chats
// stay silent. The view (src/ui/conversation/Announcer.tsx) renders `polite` and `assertive`. Peers and views import
// this module, never announcer.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';

/** Its named delays. */
export const ANNOUNCER_TIMINGS = {
  /** Messages arriving within this long of the first are said together («Анна: 5 новых сообщений»). */
  burstMs: 1_500,
  /** After «Анна печатает», typing in that chat is not said again until this long passes without any. */
  typingPauseMs: 10_000,
  /** An incoming call's words leave the assertive region after this long (a call rings 25 s). */
  callMs: 25_000,
} as const;

/** A text to say; `n` changes with every new one, so the same words said twice are said twice. */
export interface Spoken {
  text: string;
  n: number;
}

/** One message of a burst: who sent it and its short text. */
export interface Heard {
  senderId: string;
  senderName: string;
  preview: string;
}

export interface AnnouncerContext {
  /** The conversation on screen; only its messages and typing are said. */
  open: string | null;
  polite: Spoken;
  assertive: Spoken;
  /** The messages of the burst being gathered, oldest first. */
  burst: Heard[];
}

export type UploadPhase = 'started' | 'done' | 'failed';

export type AnnouncerEvent =
  /** The chat on screen changed (null: none). */
  | { type: 'announcer.opened'; conversationId: string | null }
  /** A message arrived (any chat; `own`: the user's, from another tab or device). */
  | ({ type: 'announcer.message'; conversationId: string; own: boolean } & Heard)
  /** Someone else started typing (any chat). */
  | { type: 'announcer.typing'; conversationId: string; name: string }
  | { type: 'announcer.call'; name: string; video: boolean }
  /** The files of one send started uploading, were uploaded, or failed to. */
  | { type: 'announcer.upload'; phase: UploadPhase; names: string[] };

export type AnnouncerRef = MachineRef<AnnouncerContext, AnnouncerEvent>;

// Its entry in the typed map of view-owned actors (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface OwnedActors {
    /** The live regions, while the signed-in layout shows them (src/ui/conversation/Announcer.tsx). */
    announcer: AnnouncerRef;
  }
}
