// At most one push per key (a device and a conversation) per window: the first goes at once, the ones arriving
// within the window are counted and go as one push, with the count and the latest item, when it ends.
// In memory per server process: each message is pushed by the one process that stored it, so with several
// processes a device can get one push per process within a window (docs/notifications.md, "Notifications and Web Push").
import { type Clock, type ClockTimer, systemClock } from '../clock';

export class Coalescer<T> {
  private readonly entries = new Map<
    string,
    { sentAt: number; pending: number; latest: T | null; timer: ClockTimer | null }
  >();

  constructor(
    private readonly windowMs: number,
    private readonly send: (key: string, item: T, count: number) => void,
    private readonly clock: Clock = systemClock,
  ) {}

  offer(key: string, item: T): void {
    const at = this.clock.now();
    const entry = this.entries.get(key);
    if (!entry || at - entry.sentAt >= this.windowMs) {
      if (entry?.timer) this.clock.clearTimeout(entry.timer);
      this.entries.set(key, { sentAt: at, pending: 0, latest: null, timer: null });
      this.sweep(at);
      this.send(key, item, 1);
      return;
    }
    entry.pending += 1;
    entry.latest = item;
    if (!entry.timer) {
      entry.timer = this.clock.setTimeout(() => this.flush(key), entry.sentAt + this.windowMs - at);
      entry.timer.unref();
    }
  }

  private flush(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.timer = null;
    if (entry.pending > 0 && entry.latest !== null) {
      const [item, count] = [entry.latest, entry.pending];
      entry.sentAt = this.clock.now();
      entry.pending = 0;
      entry.latest = null;
      this.send(key, item, count);
    }
  }

  /** Forgets keys whose window has passed with nothing waiting (bounded memory). */
  private sweep(at: number): void {
    if (this.entries.size < 1_000) return;
    for (const [key, e] of this.entries) if (!e.timer && at - e.sentAt >= this.windowMs) this.entries.delete(key);
  }

  close(): void {
    for (const e of this.entries.values()) if (e.timer) this.clock.clearTimeout(e.timer);
    this.entries.clear();
  }
}
