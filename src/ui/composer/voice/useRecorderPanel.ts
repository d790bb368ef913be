// The recorder actor (the composer's child) as plain values and callbacks for the composer and the recorder panel.
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { RecorderRef, VoiceThread } from '../../../machines/composer/recorder/recorder.protocol';
import type { VoiceRecorderProps } from './VoiceRecorder';

export interface RecorderPanel {
  /** The panel to show instead of the input, or null while the recorder is idle. */
  panel: VoiceRecorderProps | null;
  onStart(): void;
}

/**
 * `thread`: the thread panel's composer (its recordings go to that thread). Each composer shows only the recording it
 * started: one microphone, one recorder, two composers on screen.
 */
export function useRecorderPanel(recorder: RecorderRef | undefined, thread?: VoiceThread): RecorderPanel | null {
  const rootId = thread?.rootId ?? null;
  const phase = useSelector(recorder, (s) =>
    !s || (s.context.thread?.rootId ?? null) !== rootId
      ? null
      : s.hasTag('failed')
        ? 'failed'
        : s.hasTag('asking')
          ? 'asking'
          : s.hasTag('recording')
            ? 'recording'
            : s.hasTag('busy')
              ? 'stopping'
              : null,
  );
  const elapsedMs = useSelector(recorder, (s) => s?.context.elapsedMs ?? 0);
  const level = useSelector(recorder, (s) => s?.context.level ?? 0);
  const error = useSelector(recorder, (s) => s?.context.error ?? null);
  const insecure = useSelector(recorder, (s) => s?.context.insecure ?? null);
  const conversationId = thread?.conversationId;
  const onStart = useCallback(
    () =>
      recorder?.send(
        conversationId && rootId
          ? { type: 'recorder.start', thread: { conversationId, rootId } }
          : { type: 'recorder.start' },
      ),
    [recorder, conversationId, rootId],
  );
  const onSend = useCallback(() => recorder?.send({ type: 'recorder.send' }), [recorder]);
  const onCancel = useCallback(() => recorder?.send({ type: 'recorder.cancel' }), [recorder]);
  const onDismiss = useCallback(() => recorder?.send({ type: 'recorder.dismiss' }), [recorder]);
  if (!recorder) return null;
  return { panel: phase ? { phase, elapsedMs, level, error, insecure, onSend, onCancel, onDismiss } : null, onStart };
}
