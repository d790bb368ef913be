// Voice and call views rendered from props: the composer's microphone in the send button's place, the recorder
// panel (Escape cancels, a refused microphone says why), the player's speed and seeking, and the call-back button.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Composer, type ComposerProps } from '../composer/Composer';
import { CallEntry } from './voice/CallEntry';
import { VoicePlayer } from './voice/VoicePlayer';
import { VoiceRecorder, type VoiceRecorderProps } from '../composer/voice/VoiceRecorder';

const composer = (over: Partial<ComposerProps>): ComposerProps => ({
  text: '',
  reply: null,
  uploadProgress: null,
  onText: vi.fn(),
  onSubmit: vi.fn(),
  onClearReply: vi.fn(),
  onAttach: vi.fn(),
  ...over,
});

describe('the microphone button', () => {
  it('takes the send button’s place while the input is empty, and starts the recorder', () => {
    const onStart = vi.fn();
    const { rerender } = render(<Composer {...composer({ recorder: { panel: null, onStart } })} />);
    expect(screen.queryByRole('button', { name: 'Отправить' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Записать голосовое сообщение' }));
    expect(onStart).toHaveBeenCalledOnce();
    rerender(<Composer {...composer({ text: 'привет', recorder: { panel: null, onStart } })} />);
    expect(screen.queryByRole('button', { name: 'Записать голосовое сообщение' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Отправить' })).toBeEnabled();
  });
});

describe('the recorder panel', () => {
  const props = (over: Partial<VoiceRecorderProps>): VoiceRecorderProps => ({
    phase: 'recording',
    elapsedMs: 3_400,
    level: 0.42,
    error: null,
    onSend: vi.fn(),
    onCancel: vi.fn(),
    onDismiss: vi.fn(),
    ...over,
  });

  it('shows the time and level; «Отправить» sends, «Отмена» and Escape cancel', () => {
    const p = props({});
    render(<VoiceRecorder {...p} />);
    expect(screen.getByRole('timer')).toHaveTextContent('0:03');
    expect(screen.getByRole('meter', { name: 'Уровень звука' })).toHaveAttribute('value', '42');
    fireEvent.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(p.onSend).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole('button', { name: 'Отмена' }));
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(p.onCancel).toHaveBeenCalledTimes(2);
  });

  it('cannot send before the microphone is there, and says why when it was refused', () => {
    const { rerender } = render(<VoiceRecorder {...props({ phase: 'asking' })} />);
    expect(screen.getByRole('button', { name: 'Отправить' })).toBeDisabled();
    const p = props({ phase: 'failed', error: 'Доступ к микрофону запрещён' });
    rerender(<VoiceRecorder {...p} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Доступ к микрофону запрещён');
    fireEvent.click(screen.getByRole('button', { name: 'Закрыть' }));
    expect(p.onDismiss).toHaveBeenCalledOnce();
  });
});

describe('the player', () => {
  it('cycles the speed 1× → 1.5× → 2× → 1× on the audio element, and seeks with the arrow keys', () => {
    const { container } = render(<VoicePlayer url="/uploads/a" durationMs={12_000} waveform={[10, 100, 50]} />);
    const audio = container.querySelector('audio') as HTMLAudioElement;
    const rate = screen.getByTestId('voice-rate');
    expect(rate).toHaveTextContent('1×');
    fireEvent.click(rate);
    expect(rate).toHaveTextContent('1.5×');
    expect(audio.playbackRate).toBe(1.5);
    fireEvent.click(rate);
    fireEvent.click(rate);
    expect(audio.playbackRate).toBe(1);
    expect(screen.getByTestId('voice-time')).toHaveTextContent('0:12');
    fireEvent.keyDown(screen.getByRole('slider', { name: 'Перемотка голосового сообщения' }), { key: 'ArrowRight' });
    expect(audio.currentTime).toBe(5);
    expect(screen.getAllByTestId('voice-wave')[0]?.children).toHaveLength(3);
  });

  it('cannot play before the recording is uploaded', () => {
    render(<VoicePlayer url={null} durationMs={3_000} waveform={[1]} />);
    expect(screen.getByRole('button', { name: 'Воспроизвести голосовое сообщение' })).toBeDisabled();
  });
});

describe('a call entry', () => {
  it('shows its words and calls back with the same kind of call', () => {
    const onCallBack = vi.fn();
    render(<CallEntry label="Пропущенный звонок" video missed onCallBack={onCallBack} />);
    expect(screen.getByTestId('call-entry')).toHaveTextContent('Пропущенный звонок');
    fireEvent.click(screen.getByRole('button', { name: 'Перезвонить по видео' }));
    expect(onCallBack).toHaveBeenCalledWith(true);
  });
});
