// A subscriber's downlink estimate, from the feedback its browser sends: REMB (receiver-estimated maximum
// bitrate). The SFU negotiates goog-remb and the abs-send-time header extension on video (peer.ts) and no
// transport-cc, so Chromium runs its receive-side estimator (delay gradient over abs-send-time, loss) and reports
// the result about once a second, at once when it drops. The estimate is per peer connection: it covers every
// track the subscriber receives.

/** Without a REMB for this long the link is treated as unknown again (no constraint). */
export const ESTIMATE_STALE_MS = 5000;

export class DownlinkEstimate {
  private bps = 0;
  private at = -Infinity;

  /** A REMB arrived (bits per second). */
  observe(bps: number, now: number): void {
    if (!Number.isFinite(bps) || bps <= 0) return;
    this.bps = bps;
    this.at = now;
  }

  /** Bits per second the subscriber can take now, or null when it has not told us lately. */
  current(now: number): number | null {
    return now - this.at <= ESTIMATE_STALE_MS ? this.bps : null;
  }
}
