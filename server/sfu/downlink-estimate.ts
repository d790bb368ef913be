// A subscriber's downlink estimate, from the feedback its browser sends. The SFU negotiates goog-remb and the
// abs-send-time header extension on video (peer.ts) and no transport-cc, so Chromium runs its receive-side
// estimator (delay gradient over abs-send-time) and reports it as REMB, once there is something to report (after
// the first congestion) and then about once a second. The estimate is per peer connection: it covers every track
// the subscriber receives.
//
// REMB sees delay only: behind a full queue of constant depth it keeps rising while packets are dropped. So
// the loss the subscriber's receiver reports count as well, as in GCC's loss-based controller: above 10 % the
// estimate is at most the media rate sent × (1 − loss / 2), for a few seconds after such a report.

/** Without a REMB for this long the link is treated as unknown again (no constraint). */
export const ESTIMATE_STALE_MS = 5000;
/** Loss above this share caps the estimate. */
export const LOSS_HIGH = 0.1;
/** How long a loss-based cap holds without another lossy report. */
export const LOSS_HOLD_MS = 3000;

export class DownlinkEstimate {
  private bps = 0;
  private at = -Infinity;
  private lossCap = Infinity;
  private lossAt = -Infinity;
  /** The latest loss reported (0–1), for the allocator's probes and step-ups. */
  loss = 0;

  /** A REMB arrived (bits per second). */
  observe(bps: number, now: number): void {
    if (!Number.isFinite(bps) || bps <= 0) return;
    this.bps = bps;
    this.at = now;
  }

  /** The receivers' latest loss (0–1) while `mediaBps` were being sent to the subscriber. */
  observeLoss(loss: number, mediaBps: number, now: number): void {
    this.loss = loss;
    if (loss <= LOSS_HIGH || mediaBps <= 0) return;
    const cap = mediaBps * (1 - loss / 2);
    this.lossCap = now - this.lossAt <= LOSS_HOLD_MS ? Math.min(this.lossCap, cap) : cap;
    this.lossAt = now;
  }

  /** Bits per second the subscriber can take now, or null when it has not told us lately. */
  current(now: number): number | null {
    const remb = now - this.at <= ESTIMATE_STALE_MS ? this.bps : null;
    const lossCap = now - this.lossAt <= LOSS_HOLD_MS ? this.lossCap : null;
    if (lossCap === null) return remb;
    return remb === null ? lossCap : Math.min(remb, lossCap);
  }
}
