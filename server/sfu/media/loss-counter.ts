// Packet loss of a received RTP stream, counted from sequence numbers (connection quality reads it per interval).
/** Counts packets expected (from the highest sequence number) and received, per interval. */
export class LossCounter {
  private highest = -1;
  private windowStart = -1;
  private received = 0;

  observe(seq: number): void {
    if (this.highest < 0) {
      this.highest = seq;
      this.windowStart = seq - 1;
    } else {
      const delta = (seq - (this.highest & 0xffff)) & 0xffff;
      if (delta > 0 && delta < 0x8000) this.highest += delta;
    }
    this.received++;
  }

  /** Expected and lost packets since the last call. */
  take(): { expected: number; lost: number } {
    const expected = Math.max(0, this.highest - this.windowStart);
    const lost = Math.max(0, expected - this.received);
    this.windowStart = this.highest;
    this.received = 0;
    return { expected, lost };
  }
}
