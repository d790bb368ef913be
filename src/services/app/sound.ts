// The app's sounds (docs/behaviour.md §4: a notification sound only after a silent unlock on the first click, key or touch, at
// volume 0.9; a ring for an incoming call, a ringback for the caller). Browsers refuse play() before a user
// gesture, so the first gesture plays every element muted once ("unlock"); from then on play() is allowed.
// Every call is safe when audio is blocked or missing: a refused play() is swallowed, never thrown.

/** The part of HTMLAudioElement used here (tests pass a fake). */
export interface AudioLike {
  src: string;
  loop: boolean;
  muted: boolean;
  volume: number;
  currentTime: number;
  preload: string;
  play(): Promise<void> | undefined;
  pause(): void;
}

export interface SoundService {
  /** True once a gesture has unlocked playback. */
  readonly unlocked: boolean;
  /** The new-message sound; does nothing before the unlock (docs/behaviour.md §4 Messages). */
  notify(): void;
  /** Incoming call: loops until stopRing(); if playback is still locked it starts at the unlock. */
  startRing(): void;
  stopRing(): void;
  /** Outgoing call, while the other side is being rung: the ring, quieter. */
  startRingback(): void;
  stopRingback(): void;
  /** Unlocks now, for a gesture made before this service listened (sound-later.ts); the page keeps its activation. */
  unlock(): void;
  /** Removes the gesture listeners and stops everything. */
  dispose(): void;
}

export const SOUND_URLS = { notify: '/sounds/notify.wav', ring: '/sounds/ring.wav' } as const;
export const VOLUMES = { notify: 0.9, ring: 0.8, ringback: 0.35 } as const;

import { UNLOCK_EVENTS } from './unlock-events';

export { UNLOCK_EVENTS };

export interface SoundOptions {
  /** Where gestures are heard; window by default. */
  target?: EventTarget | null;
  createAudio?: (src: string) => AudioLike;
}

type Channel = 'notify' | 'ring' | 'ringback';

function defaultAudio(src: string): AudioLike | null {
  if (typeof Audio === 'undefined') return null;
  // jsdom (component tests) has Audio but reports every play() as "not implemented" on the console.
  if (typeof navigator !== 'undefined' && navigator.userAgent.includes('jsdom')) return null;
  return new Audio(src);
}

/** Calls play() and reports whether it started; a synchronous throw or a rejection both mean "blocked". */
async function tryPlay(el: AudioLike): Promise<boolean> {
  try {
    await el.play();
    return true;
  } catch {
    return false;
  }
}

export function createSoundService(options: SoundOptions = {}): SoundService {
  const target = options.target === undefined ? (typeof window === 'undefined' ? null : window) : options.target;
  const make = options.createAudio ?? defaultAudio;
  const elements = new Map<Channel, AudioLike>();
  const wanted = new Set<Channel>(); // looping channels that should be audible now
  let unlocked = false;
  let unlocking = false;
  let disposed = false;

  function element(channel: Channel): AudioLike | null {
    let el = elements.get(channel);
    if (!el) {
      const created = make(channel === 'notify' ? SOUND_URLS.notify : SOUND_URLS.ring);
      if (!created) return null;
      el = created;
      el.preload = 'auto';
      el.loop = channel !== 'notify';
      el.volume = VOLUMES[channel];
      elements.set(channel, el);
    }
    return el;
  }

  function rewind(el: AudioLike) {
    el.pause();
    try {
      el.currentTime = 0;
    } catch {
      /* not seekable before metadata: it starts at 0 anyway */
    }
  }

  function startLoop(channel: 'ring' | 'ringback') {
    if (disposed) return;
    wanted.add(channel);
    const el = element(channel);
    if (!el) return;
    el.muted = false;
    // Before the unlock the browser may still allow it (an earlier gesture on the site); if not, the unlock starts it.
    void tryPlay(el);
  }

  function stopLoop(channel: 'ring' | 'ringback') {
    wanted.delete(channel);
    const el = elements.get(channel);
    if (el) rewind(el);
  }

  async function unlock() {
    if (unlocked || unlocking || disposed) return;
    unlocking = true;
    const channels: Channel[] = ['notify', 'ring', 'ringback'];
    const results = await Promise.all(
      channels.map(async (channel) => {
        const el = element(channel);
        if (!el) return false;
        if (wanted.has(channel)) {
          el.muted = false; // a ring waiting for the unlock: this play is the real one
          return tryPlay(el);
        }
        el.muted = true;
        const ok = await tryPlay(el);
        if (!wanted.has(channel)) rewind(el); // a ring that started meanwhile keeps playing
        el.muted = false;
        return ok;
      }),
    );
    unlocking = false;
    if (results.some(Boolean) && !disposed) {
      unlocked = true;
      removeListeners();
    }
    // Still blocked (or no audio at all): the next gesture tries again.
  }

  const onGesture = () => {
    void unlock();
  };
  function removeListeners() {
    for (const type of UNLOCK_EVENTS) target?.removeEventListener(type, onGesture, true);
  }
  for (const type of UNLOCK_EVENTS) target?.addEventListener(type, onGesture, true);

  return {
    get unlocked() {
      return unlocked;
    },
    notify() {
      if (!unlocked || disposed) return;
      const el = element('notify');
      if (!el) return;
      rewind(el); // a second message during the chime restarts it rather than being lost
      el.muted = false;
      el.volume = VOLUMES.notify;
      void tryPlay(el);
    },
    unlock: onGesture,
    startRing: () => startLoop('ring'),
    stopRing: () => stopLoop('ring'),
    startRingback: () => startLoop('ringback'),
    stopRingback: () => stopLoop('ringback'),
    dispose() {
      disposed = true;
      removeListeners();
      for (const el of elements.values()) rewind(el);
      wanted.clear();
    },
  };
}
