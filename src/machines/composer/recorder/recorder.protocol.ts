// The voice recorder's protocol (the composer's child 'recorder', systemId 'recorder'): the events the view and its
// recording actor send it, and what it tells its parent when a recording is ready to go into the outbox.
import type { VoiceInfo } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { InsecurePage } from '../../shared/secure-context.protocol';
import type { CallbackActorLogic } from 'xstate';

/** A finished recording: the file to upload and the details the VOICE message carries. */
export interface Recording extends VoiceInfo {
  file: Blob & { name?: string };
  /** When it ended (ISO): the outbox item's time. */
  at: string;
}

/** A thread a recording is for (started from the thread panel's composer). */
export interface VoiceThread {
  conversationId: string;
  rootId: string;
}

export interface RecorderContext {
  /** Where the recording goes: a thread, or (null) the chat in front. */
  thread: VoiceThread | null;
  /** Milliseconds recorded so far. */
  elapsedMs: number;
  /** The live level, 0..1. */
  level: number;
  /** Why the last recording failed (microphone refused, none found), in Russian for the user. */
  error: string | null;
  /** Set when the page is not a secure context (plain http): no microphone at all; the view says where https is. */
  insecure: InsecurePage | null;
}

/** What the recording actor (src/services/composer/voice-recorder.ts, provided in src/services/composer/composer.effects.ts) reports. */
export type RecordingReport =
  | { type: 'recording.started' }
  | { type: 'recording.level'; level: number; elapsedMs: number }
  | { type: 'recording.done'; recording: Recording }
  | { type: 'recording.failed'; message: string }
  /** The page is not a secure context: the microphone was not even asked for. */
  | ({ type: 'recording.insecure' } & InsecurePage);

/** What the recording actor is told. */
export type RecordingCommand = { type: 'recording.stop' };

export type RecorderEvent =
  /** `thread`: started from the thread panel, the recording goes to that thread. */
  | { type: 'recorder.start'; thread?: VoiceThread }
  /** «Отправить»: stop and hand the recording to the outbox. */
  | { type: 'recorder.send' }
  /** «Отмена» or Escape: drop the recording. */
  | { type: 'recorder.cancel' }
  | { type: 'recorder.dismiss' }
  | RecordingReport;

/** What the recorder tells its parent (the composer). */
export type RecorderParentEvent = { type: 'recorder.recorded'; recording: Recording; thread?: VoiceThread };

export const MIC_FAILED = 'Не удалось записать голосовое сообщение';

export type RecorderRef = MachineRef<RecorderContext, RecorderEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/composer/composer.effects.ts). */
export interface RecorderEffects {
  /** Asks for the microphone and records; reports RecordingReport events, stops on RecordingCommand. */
  record: CallbackActorLogic<RecordingCommand, unknown>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    /** The voice recorder (the composer's child). */
    recorder: RecorderRef;
  }
}
