// The sounds' code loaded later (sound-later.ts): what is asked for before it arrives is not lost, a failed load is
// tried again, and a service disposed before its code arrived never plays.
import { describe, expect, it, vi } from 'vitest';
import { deferred } from '../../../tests/fixtures/session';
import type { SoundService } from './sound';
import { soundLater } from './sound-later';

function fakeSound(): SoundService & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    unlocked: true,
    notify: () => calls.push('notify'),
    startRing: () => calls.push('startRing'),
    stopRing: () => calls.push('stopRing'),
    startRingback: () => calls.push('startRingback'),
    stopRingback: () => calls.push('stopRingback'),
    unlock: () => calls.push('unlock'),
    dispose: () => calls.push('dispose'),
  };
}

describe('soundLater', () => {
  it('starts a ring asked for before the code arrived, and forgets one stopped meanwhile', async () => {
    const d = deferred<SoundService>();
    const sound = soundLater(() => d.promise, null);
    sound.startRing();
    sound.startRingback();
    sound.stopRingback();
    expect(sound.unlocked).toBe(false);
    const real = fakeSound();
    d.resolve(real);
    await vi.waitFor(() => expect(real.calls).toEqual(['startRing']));
    expect(sound.unlocked).toBe(true);
    sound.notify();
    sound.stopRing();
    expect(real.calls).toEqual(['startRing', 'notify', 'stopRing']);
  });

  it('tries a failed load again on the next call', async () => {
    const first = deferred<SoundService>();
    const second = deferred<SoundService>();
    const load = vi.fn().mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const sound = soundLater(load, null);
    first.reject(new Error('offline'));
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await first.promise.catch(() => {});
    sound.startRing();
    expect(load).toHaveBeenCalledTimes(2);
    const real = fakeSound();
    second.resolve(real);
    await vi.waitFor(() => expect(real.calls).toEqual(['startRing']));
  });

  it('unlocks the arriving code when a gesture came before it, and only then', async () => {
    const target = new EventTarget();
    const d = deferred<SoundService>();
    soundLater(() => d.promise, target);
    target.dispatchEvent(new Event('pointerdown'));
    const real = fakeSound();
    d.resolve(real);
    await vi.waitFor(() => expect(real.calls).toEqual(['unlock']));

    const quiet = deferred<SoundService>();
    const other = fakeSound();
    soundLater(() => quiet.promise, new EventTarget());
    quiet.resolve(other);
    await quiet.promise;
    await Promise.resolve();
    expect(other.calls).toEqual([]);
  });

  it('disposes code that arrives after the service was disposed, without playing', async () => {
    const d = deferred<SoundService>();
    const sound = soundLater(() => d.promise, null);
    sound.startRing();
    sound.dispose();
    const real = fakeSound();
    d.resolve(real);
    await vi.waitFor(() => expect(real.calls).toEqual(['dispose']));
  });
});
