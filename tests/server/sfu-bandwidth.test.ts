// The pure parts of bandwidth per subscriber: the downlink estimate from REMBs (server/sfu/downlink-estimate.ts)
// and the layer allocation with its hysteresis, pauses and probes (server/sfu/layer-allocation.ts).
import { describe, expect, it } from 'vitest';
import { DownlinkEstimate, ESTIMATE_STALE_MS } from '../../server/sfu/media/downlink-estimate';
import {
  fitLayers,
  HEADROOM,
  LayerAllocator,
  PAUSE_HOLD_MS,
  PROBE_GAP_MS,
  PROBE_MS,
  PROBE_OVERSHOOT,
  UP_FACTOR,
  UP_HOLD_MS,
  type VideoDemand,
} from '../../server/sfu/media/layer-allocation';

const k = 1000;
/** A camera sending three layers: q 150 kbit/s, h 500, f 1500. */
const cam = (id = 'cam', layers = [150 * k, 500 * k, 1500 * k]): VideoDemand => ({ id, layers });

describe('DownlinkEstimate', () => {
  it('is unknown before the first REMB and again when they stop', () => {
    const e = new DownlinkEstimate();
    expect(e.current(0)).toBeNull();
    e.observe(300 * k, 1000);
    expect(e.current(1000)).toBe(300 * k);
    expect(e.current(1000 + ESTIMATE_STALE_MS)).toBe(300 * k);
    expect(e.current(1001 + ESTIMATE_STALE_MS)).toBeNull();
  });

  it('follows the latest REMB and ignores nonsense', () => {
    const e = new DownlinkEstimate();
    e.observe(900 * k, 0);
    e.observe(250 * k, 100);
    e.observe(0, 200);
    e.observe(Number.NaN, 300);
    expect(e.current(400)).toBe(250 * k);
  });
});

describe('fitLayers', () => {
  it('gives every track its lowest layer before any track a higher one', () => {
    const a = fitLayers(700 * k, [cam('a'), cam('b')]);
    // 150 + 150, then a → 500 (650), b cannot step to 500 (1000 > 700).
    expect([a.get('a'), a.get('b')]).toEqual([1, 0]);
  });

  it('pauses a track whose lowest layer does not fit, and never goes above the layers offered', () => {
    expect(fitLayers(100 * k, [cam()]).get('cam')).toBe(-1);
    expect(fitLayers(10_000 * k, [cam('x', [150 * k, 500 * k])]).get('x')).toBe(1);
  });
});

describe('LayerAllocator', () => {
  it('puts no constraint while there is no estimate', () => {
    const a = new LayerAllocator();
    expect(a.allocate(null, 0, [cam()], 0).get('cam')).toBe(2);
    expect(a.paddingBps).toBe(0);
  });

  it('steps down at once when the estimate drops (300 kbit/s: the low layer)', () => {
    const a = new LayerAllocator();
    expect(a.allocate(5000 * k, 40 * k, [cam()], 0).get('cam')).toBe(2);
    expect(a.allocate(300 * k, 40 * k, [cam()], 500).get('cam')).toBe(0);
  });

  it('keeps the layer in use while the whole estimate still covers it (a dip just below the headroom)', () => {
    const a = new LayerAllocator();
    a.allocate(5000 * k, 0, [cam()], 0);
    a.allocate(300 * k, 0, [cam()], 500);
    // 160 kbit/s: less than q / headroom, more than q.
    for (let t = 1000; t <= 1000 + 2 * PAUSE_HOLD_MS; t += 500)
      expect(a.allocate(160 * k, 0, [cam()], t).get('cam')).toBe(0);
  });

  it('steps up one layer at a time, only after the higher one fitted with a margin for a while', () => {
    const a = new LayerAllocator();
    a.allocate(300 * k, 0, [cam()], 0);
    // Enough for h without the margin, but not with it: stays low until a probe has shown the margin is there.
    const justEnough = (500 * k) / HEADROOM + 1;
    expect(justEnough * HEADROOM).toBeLessThan(500 * k * UP_FACTOR);
    for (let t = 500; t < PROBE_MS; t += 500) expect(a.allocate(justEnough, 0, [cam()], t).get('cam')).toBe(0);
    expect(a.provenBps).toBe(0);
    // Plenty: up to h after the hold, then to f after another hold.
    const plenty = 10_000 * k;
    let t = 20_000;
    expect(a.allocate(plenty, 0, [cam()], t).get('cam')).toBe(0);
    t += UP_HOLD_MS - 500;
    expect(a.allocate(plenty, 0, [cam()], t).get('cam')).toBe(0);
    t += 500;
    expect(a.allocate(plenty, 0, [cam()], t).get('cam')).toBe(1);
    t += 500;
    expect(a.allocate(plenty, 0, [cam()], t).get('cam')).toBe(1);
    t += UP_HOLD_MS;
    expect(a.allocate(plenty, 0, [cam()], t).get('cam')).toBe(2);
  });

  it('an estimate that dips during the hold starts it again', () => {
    const a = new LayerAllocator();
    a.allocate(300 * k, 0, [cam()], 0);
    a.allocate(5000 * k, 0, [cam()], 500);
    a.allocate(300 * k, 0, [cam()], 500 + UP_HOLD_MS - 500);
    expect(a.allocate(5000 * k, 0, [cam()], 500 + UP_HOLD_MS).get('cam')).toBe(0);
    expect(a.allocate(5000 * k, 0, [cam()], 500 + 2 * UP_HOLD_MS).get('cam')).toBe(1);
  });

  it('pauses video only when even the lowest layer keeps not fitting, and counts audio first', () => {
    const a = new LayerAllocator();
    a.allocate(5000 * k, 40 * k, [cam()], 0);
    // 180 kbit/s would carry q alone, not q and the audio.
    expect(a.allocate(180 * k, 40 * k, [cam()], 500).get('cam')).toBe(0);
    expect(a.allocate(180 * k, 40 * k, [cam()], 500 + PAUSE_HOLD_MS - 500).get('cam')).toBe(0);
    expect(a.allocate(180 * k, 40 * k, [cam()], 500 + PAUSE_HOLD_MS).get('cam')).toBe(-1);
    // A short dip does not pause.
    const b = new LayerAllocator();
    b.allocate(5000 * k, 40 * k, [cam()], 0);
    b.allocate(100 * k, 40 * k, [cam()], 500);
    b.allocate(400 * k, 40 * k, [cam()], 1000);
    expect(b.allocate(100 * k, 40 * k, [cam()], 2000).get('cam')).toBe(0);
  });

  it('keeps the lowest layer flowing while the estimate rises without loss, and pauses on loss', () => {
    // As on a busy host: the subscriber's estimator took delay jitter for overuse at the start and reports 0.85× the
    // little that had arrived (66 kbit/s), then grows 8 % a second, while the camera's only layer ramps to 100 kbit/s
    // beside 45 kbit/s of audio. Paused, it waited for probes to lift the estimate: 20 s and more without video.
    const camera = (): VideoDemand[] => [cam('cam', [100 * k])];
    const rising = (t: number) => 66 * k * 1.08 ** (Math.floor(t / 1000) - 1);
    const a = new LayerAllocator();
    a.allocate(null, 45 * k, camera(), 0);
    let fitsAt = 0;
    for (let t = 1000; t <= 12_000; t += 500) {
      expect(a.allocate(rising(t), 45 * k, camera(), t).get('cam')).toBe(0);
      if (!fitsAt && rising(t) - 45 * k >= 100 * k) fitsAt = t;
    }
    expect(fitsAt).toBeGreaterThan(1000 + PAUSE_HOLD_MS);
    // The same rise with the subscriber losing 20 % is a congested link: paused after the hold.
    const b = new LayerAllocator();
    b.allocate(null, 45 * k, camera(), 0);
    for (let t = 1000; t < 1000 + PAUSE_HOLD_MS; t += 500)
      expect(b.allocate(rising(t), 45 * k, camera(), t, 0.2).get('cam')).toBe(0);
    expect(b.allocate(rising(6000), 45 * k, camera(), 1000 + PAUSE_HOLD_MS, 0.2).get('cam')).toBe(-1);
    // An estimate that stops rising pauses it too, the hold counted from its last rise.
    const c = new LayerAllocator();
    c.allocate(null, 45 * k, camera(), 0);
    for (let t = 1000; t <= 3000; t += 500) c.allocate(rising(t), 45 * k, camera(), t);
    expect(c.allocate(rising(3000), 45 * k, camera(), 3000 + PAUSE_HOLD_MS - 500).get('cam')).toBe(0);
    expect(c.allocate(rising(3000), 45 * k, camera(), 3000 + PAUSE_HOLD_MS).get('cam')).toBe(-1);
  });

  it('gives a video attached under a low estimate its lowest layer for the hold, not a pause at once', () => {
    // The subscriber's estimate, formed on its audio alone, was 67 kbit/s when its first video was attached.
    const a = new LayerAllocator();
    expect(a.allocate(67 * k, 45 * k, [], 0).size).toBe(0);
    expect(a.allocate(67 * k, 45 * k, [cam('cam', [100 * k])], 500).get('cam')).toBe(0);
    expect(a.allocate(67 * k, 45 * k, [cam('cam', [100 * k])], 500 + PAUSE_HOLD_MS - 500).get('cam')).toBe(0);
    expect(a.allocate(67 * k, 45 * k, [cam('cam', [100 * k])], 500 + PAUSE_HOLD_MS).get('cam')).toBe(-1);
    // A track that fits higher starts there, as before.
    expect(new LayerAllocator().allocate(700 * k, 0, [cam()], 0).get('cam')).toBe(1);
  });

  it('resumes a paused video after the hold once its lowest layer fits again', () => {
    const a = new LayerAllocator();
    a.allocate(5000 * k, 0, [cam()], 0);
    a.allocate(50 * k, 0, [cam()], 500);
    expect(a.allocate(50 * k, 0, [cam()], 500 + PAUSE_HOLD_MS).get('cam')).toBe(-1);
    const t = 10_000;
    expect(a.allocate(400 * k, 0, [cam()], t).get('cam')).toBe(-1);
    expect(a.allocate(400 * k, 0, [cam()], t + UP_HOLD_MS).get('cam')).toBe(0);
  });

  it('probes with padding towards the next step while a track is held back, and backs off when it fails', () => {
    const a = new LayerAllocator();
    a.allocate(5000 * k, 0, [cam()], 0);
    a.allocate(300 * k, 0, [cam()], 500);
    // Right after a step down: no probe for a while.
    expect(a.paddingBps).toBe(0);
    let t = 500 + PROBE_GAP_MS;
    a.allocate(300 * k, 0, [cam()], t);
    // Padding towards what h would need ((q + (h − q)) × margin / headroom), at most 2× the estimate in all,
    // less what q already brings.
    expect((500 * k * UP_FACTOR) / HEADROOM).toBeGreaterThan(300 * k * PROBE_OVERSHOOT);
    expect(a.paddingBps).toBeCloseTo(300 * k * PROBE_OVERSHOOT - 150 * k, -2);
    a.allocate(400 * k, 0, [cam()], t + 500);
    expect(a.paddingBps).toBeCloseTo((500 * k * UP_FACTOR) / HEADROOM - 150 * k, -2);
    // Loss during the probe: it stops, and the next waits twice as long.
    t += 1000;
    a.allocate(400 * k, 0, [cam()], t, 0.05);
    expect(a.paddingBps).toBe(0);
    expect(a.provenBps).toBe(0);
    a.allocate(400 * k, 0, [cam()], t + 2 * PROBE_GAP_MS - 500);
    expect(a.paddingBps).toBe(0);
    a.allocate(400 * k, 0, [cam()], t + 2 * PROBE_GAP_MS);
    expect(a.paddingBps).toBeGreaterThan(0);
  });

  it('counts on a rate a probe delivered cleanly while the browser’s estimate lags, until loss or a falling estimate', () => {
    const a = new LayerAllocator();
    a.allocate(5000 * k, 0, [cam()], 0);
    a.allocate(60 * k, 0, [cam()], 500);
    let t = 500 + PAUSE_HOLD_MS;
    expect(a.allocate(60 * k, 0, [cam()], t).get('cam')).toBe(-1);
    // Paused at a REMB of 60 kbit/s that does not move. Each probe that runs its length without loss proves what
    // it delivered (2× the estimate it started from), and the next starts from there; the video resumes on q once
    // a probe proved what q needs, and the REMB never moved.
    const proofs: number[] = [];
    let resumedAt = -1;
    for (let i = 0; i < 100 && resumedAt < 0; i++) {
      t += 500;
      const layer = a.allocate(60 * k, 0, [cam()], t).get('cam');
      if (a.provenBps > (proofs.at(-1) ?? 0)) proofs.push(a.provenBps);
      if (layer === 0) resumedAt = t;
    }
    // 2× the estimate, then what q needs (150 kbit/s × margin / headroom).
    expect(proofs).toEqual([120 * k, (150 * k * UP_FACTOR) / HEADROOM]);
    expect(resumedAt).toBeGreaterThan(0);
    // Two probes (4 s each, 0.5 s apart) and the hold before a step up: well under the 16 s the REMB would take at
    // its fastest (8 % a second from 60 to 200 kbit/s).
    expect(resumedAt - (500 + PAUSE_HOLD_MS)).toBeLessThan(2 * (PROBE_MS + 500) + UP_HOLD_MS + PROBE_GAP_MS + 1000);
    // Loss drops the proof: back to what the REMB says (q does not fit 60 kbit/s: down at once to the pause path).
    t += 500;
    expect(a.allocate(60 * k, 0, [cam()], t, 0.05).get('cam')).toBe(0);
    expect(a.provenBps).toBe(0);
    // A proof is dropped as well when the estimate falls below 85 % of what it was at the proof.
    const b = new LayerAllocator();
    b.allocate(5000 * k, 0, [cam()], 0);
    b.allocate(300 * k, 0, [cam()], 500);
    let u = 500 + PROBE_GAP_MS;
    for (; b.provenBps === 0 && u < 20_000; u += 500) b.allocate(300 * k, 0, [cam()], u);
    expect(b.provenBps).toBe(600 * k);
    b.allocate(250 * k, 0, [cam()], u);
    expect(b.provenBps).toBe(0);
  });

  it('stops a probe when the estimate falls during it, and needs none when nothing is held back', () => {
    const a = new LayerAllocator();
    a.allocate(5000 * k, 0, [cam()], 0);
    a.allocate(300 * k, 0, [cam()], 500);
    a.allocate(300 * k, 0, [cam()], 500 + PROBE_GAP_MS);
    expect(a.paddingBps).toBeGreaterThan(0);
    a.allocate(200 * k, 0, [cam()], 1000 + PROBE_GAP_MS);
    expect(a.paddingBps).toBe(0);
    const b = new LayerAllocator();
    b.allocate(5000 * k, 0, [cam('x', [150 * k])], 0);
    expect(b.paddingBps).toBe(0);
  });
});

describe('loss', () => {
  it('cuts the estimate to the media rate less half the loss on heavy loss, and lets it grow back slowly', () => {
    const e = new DownlinkEstimate();
    e.observe(400 * k, 0);
    e.observeLoss(0.05, 350 * k, 0);
    expect(e.current(0)).toBe(400 * k);
    e.observeLoss(0.3, 350 * k, 500);
    expect(e.current(500)).toBeCloseTo(350 * k * 0.85);
    // The same report seen again in the next round does not cut twice.
    e.observeLoss(0.3, 300 * k, 1000);
    expect(e.current(1000)).toBeCloseTo(350 * k * 0.85);
    // Clean again: 8 % a second, until REMB alone rules.
    e.observe(400 * k, 2000);
    e.observeLoss(0, 300 * k, 2000);
    expect(e.current(2000)).toBeCloseTo(350 * k * 0.85 * 1.08);
    for (let t = 3000; t <= 20_000; t += 1000) {
      e.observe(400 * k, t);
      e.observeLoss(0, 300 * k, t);
    }
    expect(e.current(20_000)).toBe(400 * k);
    // Rounds without a new report neither cut again nor grow back while the last report was lossy.
    const g = new DownlinkEstimate();
    g.observe(400 * k, 0);
    g.observeLoss(0.4, 300 * k, 0);
    for (let t = 1000; t <= 5000; t += 500) g.observeLoss(null, 300 * k, t);
    expect(g.current(5000)).toBeCloseTo(300 * k * 0.8);
    // Never below the floor that keeps audio and a probe going.
    g.observeLoss(null, 20 * k, 9000);
    g.observeLoss(null, 20 * k, 9500);
    g.observeLoss(0.9, 20 * k, 10_000);
    expect(g.current(10_000)).toBe(50 * k);
    // Without REMB as well (a browser reports REMB only after its first congestion).
    const f = new DownlinkEstimate();
    f.observeLoss(0.2, 1000 * k, 0);
    expect(f.current(0)).toBeCloseTo(900 * k);
  });

  it('stops a probe and holds back steps up while the subscriber reports loss', () => {
    const a = new LayerAllocator();
    a.allocate(5000 * k, 0, [cam()], 0);
    a.allocate(300 * k, 0, [cam()], 500);
    let t = 500 + PROBE_GAP_MS;
    a.allocate(300 * k, 0, [cam()], t);
    expect(a.paddingBps).toBeGreaterThan(0);
    t += 500;
    a.allocate(300 * k, 0, [cam()], t, 0.08);
    expect(a.paddingBps).toBe(0);
    // Plenty of estimate, but lossy: no step up however long.
    for (let i = 0; i < 10; i++) {
      t += 500;
      expect(a.allocate(5000 * k, 0, [cam()], t, 0.08).get('cam')).toBe(0);
    }
    t += 500;
    a.allocate(5000 * k, 0, [cam()], t, 0);
    expect(a.allocate(5000 * k, 0, [cam()], t + UP_HOLD_MS, 0).get('cam')).toBe(1);
  });
});
