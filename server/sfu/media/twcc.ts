// Transport-wide congestion control feedback (draft-holmer-rmcat-transport-wide-cc-extensions-01), the SFU's answer
// to every publisher. A browser sends its media with a transport-wide sequence number in a header extension and
// estimates its uplink from when each packet arrived here (Chromium's send-side estimator, GoogCC). Without this
// feedback a publisher has no estimate at all and stays at its start bitrate: a 720p camera never leaves ~300 kbit/s.
// What LiveKit does (mediatransportutil's TWCC responder) and mediasoup too: report every received sequence number
// with its arrival time, every 100 ms.
//
// Pure: arrival times come from the caller (µs on one monotonic clock), the packets are returned as bytes.

/** Deltas are in 250 µs ticks; a packet's delta fits one byte up to 255 ticks, else two (signed). */
const TICK_US = 250;
/** The reference time counts 64 ms steps in 24 bits. */
const REFERENCE_US = 64_000;
/** Feedback stays well under an MTU: at most this many statuses per packet (more go in the next one). */
const MAX_STATUSES = 1_000;
/** Arrivals older than this (µs) are dropped unreported: the sender has long given up on them. */
const MAX_AGE_US = 2_000_000;

const STATUS_NOT_RECEIVED = 0;
const STATUS_SMALL = 1;
const STATUS_LARGE = 2;

export class TwccResponder {
  /** Extended (unwrapped) sequence number → arrival (µs). */
  private readonly arrivals = new Map<number, number>();
  private lastExtended: number | null = null;
  /** The first sequence number not yet reported. */
  private nextBase: number | null = null;
  private fbCount = 0;
  /** Packets noted, and sequence numbers reported as not received, since the start (diagnostics and tests). */
  readonly counts = { received: 0, reportedLost: 0, feedback: 0 };

  constructor(
    private readonly senderSsrc: number,
    private mediaSsrc = 0,
  ) {}

  /** A packet with transport-wide sequence number `seq` (16 bits) arrived at `arrivalUs`. */
  received(seq: number, arrivalUs: number, ssrc?: number): void {
    const extended = this.unwrap(seq & 0xffff);
    if (ssrc !== undefined && this.mediaSsrc === 0) this.mediaSsrc = ssrc;
    // Already reported (as lost, or a duplicate): the sender has drawn its conclusion.
    if (this.nextBase !== null && extended < this.nextBase) return;
    if (this.arrivals.has(extended)) return;
    this.arrivals.set(extended, arrivalUs);
    this.counts.received++;
    if (this.nextBase === null) this.nextBase = extended;
  }

  /** How many received packets wait to be reported. */
  get pending(): number {
    return this.arrivals.size;
  }

  /** Feedback packets (RTCP RTPFB, FMT 15) for everything received since the last call; empty when nothing came. */
  feedback(nowUs: number): Buffer[] {
    const out: Buffer[] = [];
    this.forgetOld(nowUs);
    while (this.arrivals.size > 0 && this.nextBase !== null) {
      const packet = this.buildOne();
      if (!packet) break;
      out.push(packet);
    }
    return out;
  }

  private unwrap(seq: number): number {
    if (this.lastExtended === null) {
      this.lastExtended = seq;
      return seq;
    }
    const diff = ((seq - (this.lastExtended & 0xffff) + 0x8000) & 0xffff) - 0x8000;
    const extended = this.lastExtended + diff;
    if (diff > 0) this.lastExtended = extended;
    return extended;
  }

  private forgetOld(nowUs: number): void {
    for (const [seq, at] of this.arrivals) {
      if (nowUs - at <= MAX_AGE_US) continue;
      this.arrivals.delete(seq);
    }
    if (this.arrivals.size === 0) return;
    // Never report a run of losses longer than what is still remembered.
    const lowest = Math.min(...this.arrivals.keys());
    if (this.nextBase === null || this.nextBase < lowest - MAX_STATUSES) this.nextBase = lowest;
  }

  /** One feedback packet from `nextBase` on; moves `nextBase` past what it covers. */
  private buildOne(): Buffer | null {
    const base = this.nextBase as number;
    const highest = Math.max(...this.arrivals.keys());
    if (highest < base) return null;
    const firstArrival = this.firstArrivalFrom(base);
    if (firstArrival === null) return null;
    const referenceTime = Math.floor(firstArrival / REFERENCE_US);
    let previous = referenceTime * REFERENCE_US;
    const statuses: number[] = [];
    const deltas: number[] = [];
    let seq = base;
    for (; seq <= highest && statuses.length < MAX_STATUSES; seq++) {
      const at = this.arrivals.get(seq);
      if (at === undefined) {
        statuses.push(STATUS_NOT_RECEIVED);
        continue;
      }
      const ticks = Math.round((at - previous) / TICK_US);
      // A delta beyond 16 signed bits cannot be written: the rest goes in the next packet (its own reference).
      if (ticks < -0x8000 || ticks > 0x7fff) break;
      statuses.push(ticks >= 0 && ticks <= 0xff ? STATUS_SMALL : STATUS_LARGE);
      deltas.push(ticks);
      previous += ticks * TICK_US;
      this.arrivals.delete(seq);
    }
    // Trailing losses are not reported yet: those packets may still be on their way.
    while (statuses.length > 0 && statuses[statuses.length - 1] === STATUS_NOT_RECEIVED) {
      statuses.pop();
      seq--;
    }
    if (statuses.length === 0) return null;
    this.nextBase = seq;
    this.counts.feedback++;
    for (const st of statuses) if (st === STATUS_NOT_RECEIVED) this.counts.reportedLost++;
    return this.encode(base, statuses, deltas, referenceTime);
  }

  private firstArrivalFrom(base: number): number | null {
    let best: number | null = null;
    let bestSeq = Number.POSITIVE_INFINITY;
    for (const [seq, at] of this.arrivals) {
      if (seq >= base && seq < bestSeq) {
        bestSeq = seq;
        best = at;
      }
    }
    return best;
  }

  private encode(base: number, statuses: number[], deltas: number[], referenceTime: number): Buffer {
    const chunks = encodeChunks(statuses);
    const deltaBytes = statuses.reduce((n, s) => n + (s === STATUS_SMALL ? 1 : s === STATUS_LARGE ? 2 : 0), 0);
    const unpadded = 20 + chunks.length * 2 + deltaBytes;
    const padding = (4 - (unpadded % 4)) % 4;
    const buf = Buffer.alloc(unpadded + padding);
    buf[0] = 0x80 | (padding > 0 ? 0x20 : 0) | 15;
    buf[1] = 205;
    buf.writeUInt16BE(buf.length / 4 - 1, 2);
    buf.writeUInt32BE(this.senderSsrc >>> 0, 4);
    buf.writeUInt32BE(this.mediaSsrc >>> 0, 8);
    buf.writeUInt16BE(base & 0xffff, 12);
    buf.writeUInt16BE(statuses.length, 14);
    buf.writeUIntBE(referenceTime & 0xffffff, 16, 3);
    buf[19] = this.fbCount;
    this.fbCount = (this.fbCount + 1) & 0xff;
    let at = 20;
    for (const chunk of chunks) {
      buf.writeUInt16BE(chunk, at);
      at += 2;
    }
    let d = 0;
    for (const status of statuses) {
      if (status === STATUS_SMALL) buf[at++] = deltas[d++] as number;
      else if (status === STATUS_LARGE) {
        buf.writeInt16BE(deltas[d++] as number, at);
        at += 2;
      }
    }
    // RFC 3550 padding: the last byte says how many were added.
    if (padding > 0) buf[buf.length - 1] = padding;
    return buf;
  }
}

/** Run-length chunks for runs of 7 or more equal statuses, two-bit status vectors (7 symbols) otherwise. */
function encodeChunks(statuses: number[]): number[] {
  const chunks: number[] = [];
  let i = 0;
  while (i < statuses.length) {
    let run = 1;
    while (i + run < statuses.length && statuses[i + run] === statuses[i] && run < 0x1fff) run++;
    if (run >= 7) {
      chunks.push(((statuses[i] as number) << 13) | run);
      i += run;
      continue;
    }
    let chunk = 0xc000; // status vector, two-bit symbols
    for (let k = 0; k < 7; k++) {
      const s = i + k < statuses.length ? (statuses[i + k] as number) : STATUS_NOT_RECEIVED;
      chunk |= s << (2 * (6 - k));
    }
    chunks.push(chunk);
    i += 7;
  }
  return chunks;
}
