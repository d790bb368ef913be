// Which simulcast layer of each video track a subscriber gets, given its downlink estimate (downlink-estimate.ts):
// audio first, then every video track's lowest layer, then one step up at a time for each track in turn while
// the total fits. Going down happens at once; going up (and resuming a paused track) only after the higher
// allocation has fitted with a margin for a while, so an estimate hovering at a layer boundary does not flap.
// A track whose lowest layer does not fit is paused (-1). When a track is held below what the subscriber asked
// for, the allocator asks for a probe: padding that raises what the subscriber receives towards the next step,
// since a browser's estimate never rises much above what actually arrives. A browser's REMB grows by 8 % a second at
// most, and far slower near the capacity it measured at the last congestion, so a probe the link carried for its
// whole length (no loss reported, the estimate not falling) also counts as proof: until loss or a falling estimate
// says otherwise, the allocator may use what the probe delivered, and the next probe starts from there (about 2×
// per probe, as libwebrtc's own probes grow).
//
// Pure: the caller (down-tracks.ts) measures the layer bitrates and applies the choices.

/** Share of the estimate media may use when stepping up (a step down waits until the whole estimate is exceeded). */
export const HEADROOM = 0.9;
/**
 * A video is paused only when even its lowest layer has not fitted for this long: a browser's estimate dips
 * sharply for a moment after a burst overflowed a queue, and recovers once the lower layer flows.
 */
export const PAUSE_HOLD_MS = 5000;
/** A step up needs its total to fit in the budget divided by this. */
export const UP_FACTOR = 1.2;
/** …and to keep fitting for this long. */
export const UP_HOLD_MS = 2000;
/** A probe lasts this long (the browser's estimate rises gradually with what it receives). */
export const PROBE_MS = 4000;
/** First wait between probes; doubles after each probe cut short by loss or a falling estimate, up to PROBE_GAP_MAX_MS. */
export const PROBE_GAP_MS = 3000;
export const PROBE_GAP_MAX_MS = 15_000;
/**
 * A probe stops early when the estimate falls below this share of what it was when the probe began; a proven rate
 * is dropped when it falls below this share of what it was at the proof.
 */
const PROBE_ABORT_SHARE = 0.85;
/** A probe that ran its length cleanly is followed by the next one after this. */
const PROBE_CONTINUE_MS = 500;
/**
 * During a probe the subscriber receives at most this multiple of its estimate. A browser's receive-side estimator
 * grows by at most 8 % a second, and only while what arrives is above the link capacity it last measured (plus its
 * spread): at 1.25× it stayed in its slow additive mode after a congestion, at 2× (the multiple libwebrtc's own
 * probes use) it grows at the full 8 % again.
 */
export const PROBE_OVERSHOOT = 2;
/** Reported loss above this share stops a probe, and holds back steps up and new probes. */
export const LOSS_CALM = 0.03;

export interface VideoDemand {
  id: string;
  /** Bitrates (bit/s) of the layers this subscriber may get, lowest first: live layers up to what it asked for. */
  layers: readonly number[];
}

/** Layer index per track id: an index into its `layers`, -1 when paused. */
export type Allocation = Map<string, number>;

/** The best joint choice within a budget: lowest layers first (in order), then one step at a time, round robin. */
export function fitLayers(budget: number, tracks: readonly VideoDemand[]): Allocation {
  const out: Allocation = new Map();
  let total = 0;
  for (const t of tracks) {
    const low = t.layers[0];
    if (low !== undefined && total + low <= budget) {
      out.set(t.id, 0);
      total += low;
    } else out.set(t.id, -1);
  }
  for (let stepped = true; stepped; ) {
    stepped = false;
    for (const t of tracks) {
      const i = out.get(t.id) ?? -1;
      if (i < 0 || i + 1 >= t.layers.length) continue;
      const delta = (t.layers[i + 1] as number) - (t.layers[i] as number);
      if (total + delta > budget) continue;
      out.set(t.id, i + 1);
      total += delta;
      stepped = true;
    }
  }
  return out;
}

const sum = (tracks: readonly VideoDemand[], a: Allocation): number =>
  tracks.reduce((s, t) => {
    const i = a.get(t.id) ?? -1;
    return s + (i >= 0 ? (t.layers[i] as number) : 0);
  }, 0);

export class LayerAllocator {
  private readonly chosen: Allocation = new Map();
  private readonly upSince = new Map<string, number>();
  /** Since when a track's lowest layer has not fitted, and the estimate then. */
  private readonly pauseSince = new Map<string, { at: number; estimate: number }>();
  private probeUntil = 0;
  private probeEstimate = 0;
  private nextProbeAt = 0;
  private probeGap = PROBE_GAP_MS;
  /** What the subscriber received during the current probe (media, audio and padding, bit/s). */
  private probeRate = 0;
  /** A rate a probe delivered cleanly (bit/s; 0: none), and the estimate it was proven at. */
  private proven = 0;
  private provenAt = 0;
  /** Padding (bit/s) the caller should add now; 0 outside a probe. */
  paddingBps = 0;

  /** The rate a clean probe proved and the allocator counts on (bit/s; 0: none). */
  get provenBps(): number {
    return this.proven;
  }

  /** One round: the layer index for every video track (tracks not listed are forgotten). */
  allocate(
    reported: number | null,
    audioBps: number,
    tracks: readonly VideoDemand[],
    now: number,
    loss = 0,
  ): Allocation {
    for (const id of [...this.chosen.keys()]) {
      if (tracks.some((t) => t.id === id)) continue;
      this.chosen.delete(id);
      this.upSince.delete(id);
      this.pauseSince.delete(id);
    }
    const out: Allocation = new Map();
    if (reported === null) {
      // No feedback (yet, or any more): no constraint, as before the first REMB.
      for (const t of tracks) out.set(t.id, t.layers.length - 1);
      this.upSince.clear();
      this.paddingBps = 0;
      this.proven = 0;
    } else {
      // A proven rate holds until the subscriber reports loss or its estimate falls, and is moot once the
      // estimate has caught up with it.
      if (
        this.proven > 0 &&
        (loss > LOSS_CALM || reported < this.provenAt * PROBE_ABORT_SHARE || reported >= this.proven)
      )
        this.proven = 0;
      const estimate = Math.max(reported, this.proven);
      // Down only when the layers in use exceed the whole estimate; up only when they fit in its headroom with
      // a margin: a browser's estimate right after a congestion sits just below what it receives.
      const budget = Math.max(0, estimate * HEADROOM - audioBps);
      const down = fitLayers(Math.max(0, estimate - audioBps), tracks);
      const up = fitLayers(budget / UP_FACTOR, tracks);
      let steppedUp = false;
      let steppedDown = false;
      for (const t of tracks) {
        const top = t.layers.length - 1;
        const d = down.get(t.id) as number;
        // A video new here starts on what fits, at least its lowest layer, under the same hold as any other: the
        // estimate a subscriber sends when its video is attached was formed on its audio alone (0.85× of it after
        // a busy host's jitter looked like overuse), far below any video; paused at once, the video stayed frozen
        // while that estimate grew 8 % a second after an encoder ramping to 450 kbit/s.
        const cur = Math.min(this.chosen.get(t.id) ?? Math.max(d, 0), top);
        const u = up.get(t.id) as number;
        let next = cur;
        if (d >= 0) this.pauseSince.delete(t.id);
        if (d < 0 && cur >= 0) {
          // Down to the lowest layer at once; paused only when that keeps not fitting.
          // An estimate that rose since then, loss staying low, is a receiver ramping up, not a congested link: a
          // browser whose estimator took a busy host's delay jitter for overuse starts it at 0.85× the little that
          // had arrived, below the encoder's ramp, and grows it by 8 % a second at most; the lowest layer it
          // receives meanwhile is what makes it grow, so the hold starts over rather than pausing that video.
          const held = this.pauseSince.get(t.id);
          const hold =
            !held || (loss <= LOSS_CALM && reported > held.estimate) ? { at: now, estimate: reported } : held;
          this.pauseSince.set(t.id, hold);
          next = now - hold.at >= PAUSE_HOLD_MS ? -1 : 0;
          if (next < cur) steppedDown = true;
          this.upSince.delete(t.id);
        } else if (d < cur) {
          next = d;
          steppedDown = true;
          this.upSince.delete(t.id);
        } else if (u > cur && loss <= LOSS_CALM) {
          const since = this.upSince.get(t.id) ?? now;
          this.upSince.set(t.id, since);
          if (now - since >= UP_HOLD_MS) {
            next = cur + 1;
            steppedUp = true;
            this.upSince.set(t.id, now);
          }
        } else this.upSince.delete(t.id);
        out.set(t.id, next);
      }
      this.planProbe(estimate, reported, audioBps, tracks, out, now, steppedUp, steppedDown || loss > LOSS_CALM);
    }
    for (const [id, i] of out) this.chosen.set(id, i);
    return out;
  }

  private planProbe(
    estimate: number,
    reported: number,
    audioBps: number,
    tracks: readonly VideoDemand[],
    out: Allocation,
    now: number,
    steppedUp: boolean,
    setBack: boolean,
  ): void {
    const inProbe = now < this.probeUntil;
    if (steppedUp) {
      // It worked: the next probe may follow soon.
      this.probeGap = PROBE_GAP_MS;
      this.endProbe(now);
      return;
    }
    if (inProbe && (setBack || estimate < this.probeEstimate * PROBE_ABORT_SHARE)) {
      this.failProbe(now);
      return;
    }
    if (!inProbe && this.probeUntil > 0) {
      // A probe that ran out: the link carried it without loss and the estimate held, so what it delivered is
      // proven; the next one follows soon.
      if (!setBack && this.probeRate > this.proven && this.probeRate > reported) {
        this.proven = this.probeRate;
        this.provenAt = reported;
        this.probeGap = PROBE_GAP_MS;
      }
      this.endProbe(now);
      this.nextProbeAt = now + PROBE_CONTINUE_MS;
    }
    if (setBack) {
      this.proven = 0;
      // A step down or loss: the next probe waits.
      this.nextProbeAt = Math.max(this.nextProbeAt, now + this.probeGap);
      return;
    }
    // The cheapest step up of a track held below what it may get, and what the subscriber would need for it.
    const media = sum(tracks, out);
    let step = Infinity;
    for (const t of tracks) {
      const i = out.get(t.id) ?? -1;
      if (i + 1 >= t.layers.length) continue;
      step = Math.min(step, (t.layers[i + 1] as number) - (i >= 0 ? (t.layers[i] as number) : 0));
    }
    if (!Number.isFinite(step)) {
      this.paddingBps = 0;
      this.probeUntil = 0;
      return;
    }
    // The inverse of the step-up rule: (estimate × HEADROOM − audio) / UP_FACTOR ≥ media + step.
    const needed = ((media + step) * UP_FACTOR + audioBps) / HEADROOM;
    if (needed <= estimate) {
      // The estimate already allows it and the hold runs; a probe keeps going until the step up, or the
      // estimate, no longer fed, could sink back.
      if (inProbe) this.probeUntil = Math.max(this.probeUntil, now + UP_HOLD_MS);
      else this.paddingBps = 0;
      return;
    }
    if (!inProbe) {
      if (now < this.nextProbeAt) return;
      this.probeUntil = now + PROBE_MS;
      this.probeEstimate = estimate;
      this.probeRate = 0;
    }
    // The browser lets its estimate grow to at most 1.5× what arrives, and fast only above its last measured capacity.
    this.paddingBps = Math.max(0, Math.min(needed, estimate * PROBE_OVERSHOOT) - media - audioBps);
    this.probeRate = Math.max(this.probeRate, media + audioBps + this.paddingBps);
  }

  private endProbe(now: number): void {
    this.paddingBps = 0;
    this.probeUntil = 0;
    this.nextProbeAt = now + this.probeGap;
  }

  private failProbe(now: number): void {
    this.probeGap = Math.min(this.probeGap * 2, PROBE_GAP_MAX_MS);
    this.endProbe(now);
  }
}
