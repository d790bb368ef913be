import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  afterFirstPaint,
  FIRST_PAINT_FALLBACK_MS,
  firstPaintPending,
  firstScreenShown,
  holdUntilFirstPaint,
  releaseFirstPaint,
} from './first-paint';

/** A scheduler run by hand: frames, idle callbacks and timers wait until the test runs them. */
function manual() {
  const frames: (() => void)[] = [];
  const idles: (() => void)[] = [];
  const timers: { ms: number; run: () => void }[] = [];
  return {
    scheduler: {
      frame: (run: () => void) => void frames.push(run),
      idle: (run: () => void) => void idles.push(run),
      after: (ms: number, run: () => void) => void timers.push({ ms, run }),
    },
    frames,
    idles,
    timers,
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the first paint gate', () => {
  afterEach(() => releaseFirstPaint());

  it('runs a load at once when nothing holds it', () => {
    const load = vi.fn(() => Promise.resolve(1));
    void afterFirstPaint(load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('holds loads until the list is shown, its frame painted and the page idle', async () => {
    const m = manual();
    holdUntilFirstPaint(m.scheduler);
    const load = vi.fn(() => Promise.resolve('code'));
    const got = afterFirstPaint(load);
    await flush();
    expect(load).not.toHaveBeenCalled();
    firstScreenShown();
    firstScreenShown(); // once is enough
    expect(m.frames).toHaveLength(1);
    m.frames[0]();
    await flush();
    expect(load).not.toHaveBeenCalled();
    m.idles[0]();
    await expect(got).resolves.toBe('code');
    expect(load).toHaveBeenCalledTimes(1);
    expect(firstPaintPending()).toBe(false);
    // Later loads go at once.
    const later = vi.fn(() => Promise.resolve(2));
    void afterFirstPaint(later);
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('lets the loads go after the fallback time if the list never shows', async () => {
    const m = manual();
    holdUntilFirstPaint(m.scheduler);
    const load = vi.fn(() => Promise.resolve(1));
    const got = afterFirstPaint(load);
    expect(m.timers.map((t) => t.ms)).toEqual([FIRST_PAINT_FALLBACK_MS]);
    m.timers[0].run();
    await expect(got).resolves.toBe(1);
  });
});
