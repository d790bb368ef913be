// How loud a published microphone is, from the RFC 6464 audio-level header extension the sender writes on every
// packet (0 = loudest … 127 dBov = silence). As LiveKit's server does: a packet counts as speech at 35 dBov or
// louder, a window of 500 ms is speech when at least 40 % of its 20 ms frames are, and the level reported is
// the mean over the last two windows, so a speaker stays lit through short pauses but goes dark within a second.

const ACTIVE_DBOV = 35;
const FRAME_MS = 20;
const MIN_ACTIVE_SHARE = 0.4;
const SMOOTH_WINDOWS = 2;

/** LiveKit's conversion of dBov to the 0–1 `level` clients show. */
export const dbovToLevel = (dbov: number): number => 10 ** (-dbov / 20);

export class AudioLevel {
  private active = 0;
  private activeSum = 0;
  private windowStart = 0;
  private readonly recent: number[] = [];

  observe(dbov: number): void {
    if (dbov > ACTIVE_DBOV) return;
    this.active++;
    this.activeSum += dbovToLevel(dbov);
  }

  /** Closes the current window and returns the smoothed level (0 = not speaking). */
  sample(now = Date.now()): number {
    const elapsed = this.windowStart ? now - this.windowStart : 500;
    const frames = Math.max(1, elapsed / FRAME_MS);
    const level = this.active >= frames * MIN_ACTIVE_SHARE ? this.activeSum / this.active : 0;
    this.windowStart = now;
    this.active = 0;
    this.activeSum = 0;
    this.recent.push(level);
    if (this.recent.length > SMOOTH_WINDOWS) this.recent.shift();
    return this.recent.reduce((a, b) => a + b, 0) / this.recent.length;
  }
}
