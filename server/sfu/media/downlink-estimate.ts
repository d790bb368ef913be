// A subscriber's downlink estimate, from the feedback its browser sends. The SFU negotiates goog-remb and the
// abs-send-time header extension on video and audio (peer.ts) and no transport-cc, so Chromium runs its receive-side
// estimator (delay gradient over abs-send-time) and reports it as REMB, once there is something to report (after
// the first congestion) and then about once a second. The estimate is per peer connection: it covers every track
// the subscriber receives.
//
// REMB sees delay only: behind a full queue of constant depth it keeps rising while packets are dropped. So
// the loss the subscriber's receivers report counts as well, as in GCC's loss-based controller: above 10 % loss
// the estimate (at most the media rate sent over the last 1.5 s) is cut by loss / 2, at most once a second;
// below 2 % the cut grows back by 8 % a second until REMB alone rules again.

/** Without a REMB for this long the link is treated as unknown again (no constraint). */
export const ESTIMATE_STALE_MS = 5000;
/** Loss above this share cuts the estimate… */
export const LOSS_HIGH = 0.1;
/** …and below this one lets the cut grow back. */
export const LOSS_LOW = 0.02;
const LOSS_CUT_GAP_MS = 1000;
/** Loss alone never takes the estimate below this (audio and a probe must still get through). */
const LOSS_FLOOR_BPS = 50_000;
const REPORT_SPAN_MS = 1500;
const LOSS_GROWTH_PER_S = 1.08;
/** Without any REMB, a cut that grew back past this is dropped. */
const NO_CAP_ABOVE_BPS = 50_000_000;

export class DownlinkEstimate {
  private bps = 0;
  private at = -Infinity;
  private lossCap = Infinity;
  private lossCutAt = -Infinity;
  private lossSeenAt = -Infinity;
  private readonly sent: Array<{ at: number; bps: number }> = [];
  /** The latest loss reported (0–1), for the allocator's probes and step-ups. */
  loss = 0;

  /** A REMB arrived (bits per second). */
  observe(bps: number, now: number): void {
    if (!Number.isFinite(bps) || bps <= 0) return;
    this.bps = bps;
    this.at = now;
  }

  /**
   * One round: the loss (0–1) in the receiver reports that arrived since the last round (null: none arrived),
   * while `mediaBps` were being sent to the subscriber. Each report counts once.
   */
  observeLoss(reported: number | null, mediaBps: number, now: number): void {
    const seconds = Math.max(0, now - this.lossSeenAt) / 1000;
    this.lossSeenAt = now;
    if (reported !== null) this.loss = reported;
    const loss = reported ?? Math.min(this.loss, LOSS_HIGH);
    // A receiver report covers about the last second: what was sent then, not only now (a layer may have just
    // been switched down because of that very loss).
    this.sent.push({ at: now, bps: mediaBps });
    while ((this.sent[0]?.at ?? now) < now - REPORT_SPAN_MS) this.sent.shift();
    if (loss > LOSS_HIGH) {
      const sentBps = Math.max(...this.sent.map((x) => x.bps));
      if (now - this.lossCutAt < LOSS_CUT_GAP_MS || sentBps <= 0) return;
      this.lossCutAt = now;
      this.lossCap = Math.max(
        LOSS_FLOOR_BPS,
        Math.min(this.lossCap, this.current(now) ?? Infinity, sentBps) * (1 - loss / 2),
      );
    } else if (loss < LOSS_LOW && Number.isFinite(this.lossCap)) {
      this.lossCap *= LOSS_GROWTH_PER_S ** Math.min(seconds, 5);
      const ceiling = this.at > -Infinity ? this.bps * 1.5 : NO_CAP_ABOVE_BPS;
      if (this.lossCap > ceiling) this.lossCap = Infinity;
    }
  }

  /** Bits per second the subscriber can take now, or null when it has not told us lately. */
  current(now: number): number | null {
    const remb = now - this.at <= ESTIMATE_STALE_MS ? this.bps : null;
    const lossCap = Number.isFinite(this.lossCap) ? this.lossCap : null;
    if (lossCap === null) return remb;
    return remb === null ? lossCap : Math.min(remb, lossCap);
  }
}
