// The composer feature's effects provided from the real services.
import { fromCallback } from 'xstate';
import { MIC_FAILED, type RecordingCommand, type RecordingReport } from './machines/recorder/recorder.machine';

/** The recorder's recording actor: the recording service is fetched on demand, the first time it records. */
export const recordVoiceActor = fromCallback<RecordingCommand>(({ sendBack, receive }) => {
  const report = (r: RecordingReport) => sendBack(r);
  let handle: { stop(): void; dispose(): void } | null = null;
  let stopped = false;
  let disposed = false;
  import('./services/voice-recorder').then(
    ({ recordVoice }) => {
      if (disposed) return;
      handle = recordVoice({
        started: () => report({ type: 'recording.started' }),
        level: (level, elapsedMs) => report({ type: 'recording.level', level, elapsedMs }),
        done: (r) => report({ type: 'recording.done', recording: { ...r, at: new Date().toISOString() } }),
        failed: (message) => report({ type: 'recording.failed', message }),
      });
      if (stopped) handle.stop();
    },
    () => report({ type: 'recording.failed', message: MIC_FAILED }),
  );
  receive(() => {
    stopped = true;
    handle?.stop();
  });
  return () => {
    disposed = true;
    handle?.dispose();
  };
});
