// The sound policy with a fake Audio: nothing audible before a gesture unlocks playback, the unlock itself is
// silent, notify plays at 0.9, rings loop and stop, and a browser that refuses play() never breaks anything.
import { describe, expect, it } from 'vitest';
import { type AudioLike, createSoundService, SOUND_URLS, VOLUMES } from './sound';

/** A fake audio element recording every play with its audible state; `blocked` makes play() reject. */
class FakeAudio implements AudioLike {
  loop = false;
  muted = false;
  volume = 1;
  currentTime = 0;
  preload = '';
  paused = true;
  plays: { muted: boolean; volume: number }[] = [];
  constructor(
    public src: string,
    private env: { blocked: boolean; throwSync?: boolean },
  ) {}
  play(): Promise<void> {
    if (this.env.throwSync) throw new Error('play is not a function here');
    this.plays.push({ muted: this.muted, volume: this.volume });
    if (this.env.blocked) return Promise.reject(new DOMException('blocked', 'NotAllowedError'));
    this.paused = false;
    return Promise.resolve();
  }
  pause() {
    this.paused = true;
  }
  /** Plays that a listener could hear. */
  get audible() {
    return this.plays.filter((p) => !p.muted);
  }
}

function setup(env: { blocked: boolean; throwSync?: boolean } = { blocked: false }) {
  const target = new EventTarget();
  const made: FakeAudio[] = [];
  const sound = createSoundService({
    target,
    createAudio: (src) => {
      const a = new FakeAudio(src, env);
      made.push(a);
      return a;
    },
  });
  const byChannel = () => ({
    notify: made.find((a) => a.src === SOUND_URLS.notify),
    ring: made.filter((a) => a.src === SOUND_URLS.ring),
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const gesture = async (type = 'click') => {
    target.dispatchEvent(new Event(type));
    await flush();
  };
  return { sound, made, byChannel, gesture, flush, env };
}

describe('sound service', () => {
  it('plays nothing for a new message before the first gesture', () => {
    const { sound, made } = setup();
    sound.notify();
    expect(sound.unlocked).toBe(false);
    expect(made.flatMap((a) => a.audible)).toEqual([]);
  });

  it('unlocks on the first click with a muted play, then notify plays audibly at volume 0.9', async () => {
    const { sound, byChannel, gesture } = setup();
    await gesture('click');
    expect(sound.unlocked).toBe(true);
    const notify = byChannel().notify!;
    expect(notify.plays).toEqual([{ muted: true, volume: VOLUMES.notify }]); // the unlock was silent
    expect(notify.paused).toBe(true); // and stopped right away
    expect(notify.muted).toBe(false);

    sound.notify();
    expect(notify.audible).toEqual([{ muted: false, volume: 0.9 }]);
    sound.notify(); // a second message restarts the chime
    expect(notify.audible).toHaveLength(2);
    expect(notify.currentTime).toBe(0);
  });

  it.each(['keydown', 'touchend', 'pointerdown'])('a %s unlocks too', async (type) => {
    const { sound, gesture } = setup();
    await gesture(type);
    expect(sound.unlocked).toBe(true);
  });

  it('unlocks once: later gestures play nothing more', async () => {
    const { made, gesture } = setup();
    await gesture();
    const before = made.reduce((n, a) => n + a.plays.length, 0);
    await gesture('keydown');
    expect(made.reduce((n, a) => n + a.plays.length, 0)).toBe(before);
  });

  it('stays locked while the browser refuses, and unlocks on a later gesture that succeeds', async () => {
    const { sound, byChannel, gesture, env } = setup({ blocked: true });
    await gesture();
    expect(sound.unlocked).toBe(false);
    sound.notify(); // no throw, and no extra play attempt while locked
    expect(byChannel().notify!.audible).toEqual([]);
    env.blocked = false;
    await gesture('keydown');
    expect(sound.unlocked).toBe(true);
  });

  it('never throws when play() throws synchronously or audio does not exist', async () => {
    const { sound, gesture } = setup({ blocked: false, throwSync: true });
    await gesture();
    expect(sound.unlocked).toBe(false);
    expect(() => {
      sound.notify();
      sound.startRing();
      sound.stopRing();
    }).not.toThrow();

    const none = createSoundService({ target: new EventTarget(), createAudio: () => null as unknown as AudioLike });
    expect(() => {
      none.notify();
      none.startRingback();
      none.stopRingback();
      none.dispose();
    }).not.toThrow();
  });

  it('rings in a loop until stopped, and a ring asked for while locked starts audibly at the unlock', async () => {
    const { sound, byChannel, gesture, env } = setup({ blocked: true });
    sound.startRing();
    const [ring] = byChannel().ring;
    expect(ring.loop).toBe(true);
    expect(ring.volume).toBe(VOLUMES.ring);
    expect(ring.paused).toBe(true); // refused
    env.blocked = false;
    await gesture();
    expect(ring.paused).toBe(false);
    expect(ring.muted).toBe(false);
    expect(ring.plays.at(-1)).toEqual({ muted: false, volume: VOLUMES.ring });

    sound.stopRing();
    expect(ring.paused).toBe(true);
    expect(ring.currentTime).toBe(0);
  });

  it('a ring that was stopped before the unlock stays silent through it', async () => {
    const { sound, byChannel, gesture, env } = setup({ blocked: true });
    sound.startRing();
    sound.stopRing();
    env.blocked = false;
    await gesture();
    const [ring] = byChannel().ring;
    expect(ring.audible).toHaveLength(1); // only the refused attempt
    expect(ring.paused).toBe(true);
  });

  it('ringback loops the ring more quietly on its own element', async () => {
    const { sound, byChannel, gesture } = setup();
    await gesture();
    sound.startRingback();
    const rings = byChannel().ring;
    const ringback = rings.find((a) => a.volume === VOLUMES.ringback)!;
    expect(VOLUMES.ringback).toBeLessThan(VOLUMES.ring);
    expect(ringback.loop).toBe(true);
    expect(ringback.paused).toBe(false);
    expect(ringback.audible.at(-1)).toEqual({ muted: false, volume: VOLUMES.ringback });
    sound.stopRingback();
    expect(ringback.paused).toBe(true);
  });

  it('dispose stops everything and ignores later gestures', async () => {
    const { sound, byChannel, gesture } = setup();
    sound.startRing();
    sound.dispose();
    expect(byChannel().ring[0].paused).toBe(true);
    await gesture();
    expect(sound.unlocked).toBe(false);
    sound.notify();
    expect(byChannel().notify?.audible ?? []).toEqual([]);
  });
});
