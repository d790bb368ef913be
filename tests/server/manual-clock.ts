// A clock the test moves itself (server/clock.ts): handed to a test server, it holds the time the server's
// rules run on (token expiry, typing, receipt and push windows) still until `advance`, which runs each timer
// that falls due on the way, in order, at its own time. The tests then wait for what those timers send, not
// for the time to pass.
import type { Clock, ClockTimer } from '../../server/clock';

export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, running every timer due by then, each with the clock at its due time. */
  advance(ms: number): void;
}

interface Timer extends ClockTimer {
  at: number;
  order: number;
  fn: () => void;
}

export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  let made = 0;
  const timers = new Set<Timer>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const timer: Timer = { at: now + Math.max(0, ms), order: made++, fn, unref: () => timer };
      timers.add(timer);
      return timer;
    },
    clearTimeout(timer) {
      if (timer) timers.delete(timer as Timer);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        let due: Timer | null = null;
        for (const t of timers)
          if (t.at <= until && (!due || t.at < due.at || (t.at === due.at && t.order < due.order))) due = t;
        if (!due) break;
        timers.delete(due);
        now = Math.max(now, due.at);
        due.fn();
      }
      now = until;
    },
  };
}
