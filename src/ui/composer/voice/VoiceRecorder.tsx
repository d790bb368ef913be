// The recorder panel, in the composer's place while a voice message is recorded (loaded on demand: see
// LazyVoiceRecorder.ts): the elapsed time, a live level, «Отмена» (or Escape) and «Отправить»; a refused
// microphone shows why, in Russian. It renders from props (useRecorderPanel.ts turns the recorder actor into them).
import { useEffect } from 'react';
import { clock } from '../../../contract/format';
import { VOICE } from '../../../contract/limits';
import type { InsecurePage } from '../../../machines/shared/secure-context.protocol';
import { InsecureText } from '../../shared/InsecureNotice';

export interface VoiceRecorderProps {
  phase: 'asking' | 'recording' | 'stopping' | 'failed';
  elapsedMs: number;
  /** 0..1 */
  level: number;
  error: string | null;
  /** The page is not a secure context (plain http): the sentence with the https address replaces the error. */
  insecure?: InsecurePage | null;
  onSend(): void;
  onCancel(): void;
  onDismiss(): void;
}

export function VoiceRecorder(props: VoiceRecorderProps) {
  const { onCancel, phase } = props;
  useEffect(() => {
    if (phase === 'failed') return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) {
        e.preventDefault();
        onCancel();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel, phase]);

  if (phase === 'failed') {
    return (
      <div className="recorder failed" data-testid="recorder">
        <p role="alert" className="recorder-error">
          {props.insecure ? <InsecureText topic="calls" page={props.insecure} /> : props.error}
        </p>
        <button type="button" className="link-button" onClick={props.onDismiss}>
          Закрыть
        </button>
      </div>
    );
  }
  const level = Math.round(props.level * 100);
  return (
    <section className="recorder" aria-label="Запись голосового сообщения" data-testid="recorder">
      <span className="recorder-dot" aria-hidden="true" />
      <span className="recorder-time" role="timer" aria-live="off" data-testid="recorder-time">
        {phase === 'asking' ? 'Ожидание микрофона…' : clock(props.elapsedMs)}
      </span>
      <span className="recorder-limit">из {clock(VOICE.maxDurationMs)}</span>
      <meter className="recorder-level" aria-label="Уровень звука" min={0} max={100} value={level} />
      <button type="button" className="link-button" onClick={onCancel}>
        Отмена
      </button>
      <button type="button" className="primary-button" onClick={props.onSend} disabled={phase !== 'recording'}>
        Отправить
      </button>
    </section>
  );
}
