// A voice message in the history: play/pause, the waveform as a seek bar (click or arrow keys), elapsed/total
// time and the speed 1× / 1.5× / 2×. The player is view state, not an actor: the <audio> element already is
// the state machine of playback (paused, playing, ended, seeking) and nothing outside this bubble depends on
// it, except one rule kept by now-playing.ts: starting one voice message pauses the one that was playing.
import { type KeyboardEvent, type MouseEvent, useEffect, useRef, useState } from 'react';
import { VOICE } from '../../../contract/limits';
import { clock } from '../voice-call-text';
import { claimPlayback, releasePlayback } from './now-playing';
import './voice.css';

export interface VoicePlayerProps {
  /** The recording; null while it is still uploading. */
  url: string | null;
  durationMs: number;
  waveform: number[];
}

const SEEK_STEP_S = 5;

export function VoicePlayer(props: VoicePlayerProps) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [rate, setRate] = useState<number>(VOICE.rates[0]);
  const total = props.durationMs / 1000;

  useEffect(() => {
    const el = audio.current;
    return () => {
      if (el) releasePlayback(el);
    };
  }, []);

  const toggle = () => {
    const el = audio.current;
    if (!el || !props.url) return;
    if (el.paused) {
      claimPlayback(el);
      el.playbackRate = rate;
      void el.play().catch(() => setPlaying(false));
    } else el.pause();
  };
  const seekTo = (seconds: number) => {
    const el = audio.current;
    if (!el) return;
    el.currentTime = Math.max(0, Math.min(total, seconds));
    setPosition(el.currentTime);
  };
  const onBarClick = (e: MouseEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    seekTo(((e.clientX - box.left) / box.width) * total);
  };
  const onBarKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      seekTo(position + (e.key === 'ArrowRight' ? SEEK_STEP_S : -SEEK_STEP_S));
    }
  };
  const nextRate = () => {
    const next = VOICE.rates[(VOICE.rates.indexOf(rate as (typeof VOICE.rates)[number]) + 1) % VOICE.rates.length];
    setRate(next);
    if (audio.current) audio.current.playbackRate = next;
  };
  const played = total > 0 ? position / total : 0;

  return (
    <div className="voice" data-testid="voice-player">
      {/* biome-ignore lint/a11y/useMediaCaption: a voice message has no captions to offer */}
      <audio
        ref={audio}
        src={props.url ?? undefined}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => {
          setPlaying(false);
          setPosition(0);
        }}
        onTimeUpdate={(e) => setPosition(e.currentTarget.currentTime)}
        data-testid="voice-audio"
      />
      <button
        type="button"
        className="voice-play"
        onClick={toggle}
        disabled={!props.url}
        aria-label={playing ? 'Пауза' : 'Воспроизвести голосовое сообщение'}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          {playing ? (
            <path d="M7 5h3v14H7zM14 5h3v14h-3z" fill="currentColor" />
          ) : (
            <path d="M8 5l11 7-11 7z" fill="currentColor" />
          )}
        </svg>
      </button>
      <div
        className="voice-wave"
        role="slider"
        tabIndex={0}
        aria-label="Перемотка голосового сообщения"
        aria-valuemin={0}
        aria-valuemax={Math.round(total)}
        aria-valuenow={Math.round(position)}
        aria-valuetext={`${clock(position * 1000)} из ${clock(props.durationMs)}`}
        onClick={onBarClick}
        onKeyDown={onBarKey}
        data-testid="voice-wave"
      >
        {props.waveform.map((peak, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: the peaks never move
            key={i}
            className={(i + 0.5) / props.waveform.length <= played ? 'voice-peak played' : 'voice-peak'}
            style={{ height: `${Math.max(8, peak)}%` }}
          />
        ))}
      </div>
      <span className="voice-time" data-testid="voice-time">
        {playing || position > 0 ? `${clock(position * 1000)} / ${clock(props.durationMs)}` : clock(props.durationMs)}
      </span>
      <button
        type="button"
        className="voice-rate"
        onClick={nextRate}
        aria-label={`Скорость ${rate}×`}
        data-testid="voice-rate"
      >
        {rate}×
      </button>
    </div>
  );
}
