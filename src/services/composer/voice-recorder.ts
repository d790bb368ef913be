// Records a voice message from the microphone (loaded on demand: src/services/composer/composer.effects.ts imports it when the user
// presses the microphone button). MediaRecorder writes Opus in WebM, or AAC in MP4 where the browser has no Opus
// recorder; an AnalyserNode samples the level every VOICE.levelTickMs for the live meter and the waveform.
import { VOICE } from '../../contract/limits';
import { waveformOf } from './voice-waveform';

export const MIC_DENIED =
  'Доступ к микрофону запрещён. Разрешите его в настройках браузера, чтобы записывать голосовые сообщения';
export const MIC_MISSING = 'Микрофон не найден. Подключите микрофон и попробуйте снова';
export const MIC_UNSUPPORTED = 'Этот браузер не умеет записывать звук';
export const TOO_SHORT = 'Голосовое сообщение слишком короткое';

export interface VoiceRecording {
  file: Blob;
  durationMs: number;
  waveform: number[];
}

export interface VoiceRecorderEvents {
  started(): void;
  level(level: number, elapsedMs: number): void;
  done(recording: VoiceRecording): void;
  failed(message: string): void;
}

/** The recording's container, by what this browser can record. */
export function recordingType(isSupported: (type: string) => boolean): string {
  for (const type of ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'])
    if (isSupported(type)) return type;
  return '';
}

function micError(err: unknown): string {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return MIC_DENIED;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return MIC_MISSING;
  return MIC_UNSUPPORTED;
}

/** Starts asking for the microphone, then records until stop() (done) or dispose() (nothing is reported). */
export function recordVoice(on: VoiceRecorderEvents): { stop(): void; dispose(): void } {
  let disposed = false;
  let stopRequested = false;
  let cleanup = () => {};
  let stopNow = () => {
    stopRequested = true;
  };

  (async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') throw new Error(MIC_UNSUPPORTED);
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    if (disposed) {
      for (const t of stream.getTracks()) t.stop();
      return;
    }
    const mimeType = recordingType((t) => MediaRecorder.isTypeSupported(t));
    const recorder = new MediaRecorder(stream, {
      ...(mimeType ? { mimeType } : {}),
      audioBitsPerSecond: VOICE.recordBitsPerSec,
    });
    const audio = new AudioContext();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 1024;
    audio.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    const levels: number[] = [];
    const chunks: Blob[] = [];
    let startedAt = 0;
    const tick = setInterval(() => {
      analyser.getByteTimeDomainData(samples);
      let peak = 0;
      for (const v of samples) peak = Math.max(peak, Math.abs(v - 128) / 128);
      levels.push(peak);
      on.level(peak, performance.now() - startedAt);
    }, VOICE.levelTickMs);
    cleanup = () => {
      clearInterval(tick);
      for (const t of stream.getTracks()) t.stop();
      void audio.close().catch(() => {});
    };
    recorder.ondataavailable = (e) => {
      if (e.data.size) chunks.push(e.data);
    };
    recorder.onstop = () => {
      const durationMs = Math.round(performance.now() - startedAt);
      cleanup();
      if (disposed) return;
      if (durationMs < VOICE.minDurationMs) return on.failed(TOO_SHORT);
      const type = (recorder.mimeType || mimeType || 'audio/webm').split(';')[0];
      on.done({
        file: new Blob(chunks, { type }),
        durationMs: Math.min(durationMs, VOICE.maxDurationMs),
        waveform: waveformOf(levels),
      });
    };
    stopNow = () => {
      if (recorder.state !== 'inactive') recorder.stop();
    };
    recorder.start(250);
    startedAt = performance.now();
    on.started();
    if (stopRequested) stopNow();
  })().catch((err: unknown) => {
    cleanup();
    if (!disposed) on.failed(err instanceof Error && err.message === MIC_UNSUPPORTED ? MIC_UNSUPPORTED : micError(err));
  });

  return {
    stop: () => stopNow(),
    dispose() {
      disposed = true;
      stopNow();
      cleanup();
    },
  };
}
