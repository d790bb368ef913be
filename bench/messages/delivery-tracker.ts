// Counts what the load generator sees: each send is expected at a set of receiver sockets; the first frame
// carrying it at a receiver is its delivery (timed from the moment the send was scheduled). A second frame
// of the same event at the same socket, or a second stored copy (another message id for one
// clientMessageId), is a duplicate; a frame at a socket that should not get it is misdelivered; an
// acknowledged send that some receiver never got is lost. Frames of the other message event for a message
// already delivered (message:new then message:notify) are counted as extra frames, not as duplicates.

export interface DeliveredFrame {
  id: string;
  clientMessageId: string | null;
}

interface Expected {
  scheduledAt: number;
  sender: string;
  waiting: Set<string>;
  /** receiver → events seen for this message there */
  seen: Map<string, Set<string>>;
  messageId: string | null;
  state: 'in-flight' | 'acked' | 'failed';
}

export interface TrackerCounts {
  sent: number;
  acked: number;
  failed: number;
  deliveries: number;
  duplicates: number;
  misdelivered: number;
  extraFrames: number;
  echoes: number;
  /** Acknowledged sends' deliveries still missing (final once the phase has drained). */
  lost: number;
}

export class DeliveryTracker {
  private expected = new Map<string, Expected>();
  private counts = {
    sent: 0,
    acked: 0,
    failed: 0,
    deliveries: 0,
    duplicates: 0,
    misdelivered: 0,
    extraFrames: 0,
    echoes: 0,
  };
  /** Arrival time and latency (ms) of every delivery, in arrival order. */
  private arrivals: number[] = [];
  private latencies: number[] = [];

  /** A send of `key` (its clientMessageId) by `sender`, expected at `receivers`. */
  sent(key: string, sender: string, receivers: string[], scheduledAt: number): void {
    this.expected.set(key, {
      scheduledAt,
      sender,
      waiting: new Set(receivers),
      seen: new Map(),
      messageId: null,
      state: 'in-flight',
    });
    this.counts.sent++;
  }

  acked(key: string, messageId: string): void {
    const e = this.expected.get(key);
    if (!e) return;
    e.state = 'acked';
    this.counts.acked++;
    if (e.messageId && e.messageId !== messageId) this.counts.duplicates++;
    e.messageId ??= messageId;
  }

  failed(key: string): void {
    const e = this.expected.get(key);
    if (!e) return;
    e.state = 'failed';
    this.counts.failed++;
  }

  /** A message event (`event`) arrived at socket `receiver` at time `now`. */
  frame(receiver: string, event: string, message: DeliveredFrame, now: number): void {
    const e = message.clientMessageId ? this.expected.get(message.clientMessageId) : undefined;
    if (!e) {
      this.counts.misdelivered++;
      return;
    }
    if (e.messageId && e.messageId !== message.id) this.counts.duplicates++;
    e.messageId ??= message.id;
    if (receiver === e.sender) {
      this.counts.echoes++;
      return;
    }
    const events = e.seen.get(receiver);
    if (events?.has(event)) {
      this.counts.duplicates++;
      return;
    }
    if (events) {
      events.add(event);
      this.counts.extraFrames++;
      return;
    }
    if (!e.waiting.delete(receiver)) {
      this.counts.misdelivered++;
      return;
    }
    e.seen.set(receiver, new Set([event]));
    this.counts.deliveries++;
    this.arrivals.push(now);
    this.latencies.push(now - e.scheduledAt);
  }

  /** Deliveries still expected for sends that were acknowledged (or all, with `includeInFlight`). */
  missing(includeInFlight = false): number {
    let n = 0;
    for (const e of this.expected.values()) {
      if (e.state === 'acked' || (includeInFlight && e.state === 'in-flight')) n += e.waiting.size;
    }
    return n;
  }

  /** Deliveries still missing for sends acknowledged and scheduled before `t` (a long run's running count). */
  lateSince(t: number): number {
    let n = 0;
    for (const e of this.expected.values()) if (e.state === 'acked' && e.scheduledAt < t) n += e.waiting.size;
    return n;
  }

  inFlight(): number {
    let n = 0;
    for (const e of this.expected.values()) if (e.state === 'in-flight') n++;
    return n;
  }

  totals(): TrackerCounts {
    return { ...this.counts, lost: this.missing() };
  }

  /** Deliveries that arrived in [from, to) and their latencies. */
  window(from: number, to: number): { deliveries: number; latencies: Float64Array } {
    const picked: number[] = [];
    for (let i = 0; i < this.arrivals.length; i++) {
      const t = this.arrivals[i] as number;
      if (t >= from && t < to) picked.push(this.latencies[i] as number);
    }
    return { deliveries: picked.length, latencies: Float64Array.from(picked).sort() };
  }
}

/** The q-quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] as number;
}
