// A history import gives way to the people using the server (docs/history-import.md «Server»): before each piece
// of its work (reading the next batch, committing a part of one) it waits until no HTTP request is being answered,
// so a send in another chat is never queued behind more than the one piece already running. A request that stays
// open (a large download) cannot stop the import: after `maxWaitMs` it goes on regardless.
import type { Server } from 'node:http';
import { type Clock, systemClock } from '../clock';

export interface RequestGate {
  /** Resolves once no request is in flight, or after `maxWaitMs` at most. */
  quiet(): Promise<void>;
  /** Requests being answered now (tests). */
  inFlight(): number;
}

/**
 * `clock` times the longest wait: the system clock in the server (pacing, as the writers' gathering, is no rule a user
 * sees, so a test's manual clock does not hold it), a manual one in this module's own test.
 */
export function requestGate(server: Pick<Server, 'on'>, maxWaitMs: number, clock: Clock = systemClock): RequestGate {
  let open = 0;
  let waiters: (() => void)[] = [];
  const wake = () => {
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };
  server.on('request', (_req, res) => {
    open += 1;
    res.once('close', () => {
      open -= 1;
      // Wake in the next turn: the client's next request, sent the moment it read this answer, may already be here.
      if (open === 0) setImmediate(() => open === 0 && wake());
    });
  });
  return {
    inFlight: () => open,
    quiet() {
      if (open === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = clock.setTimeout(done, maxWaitMs);
        function done() {
          clock.clearTimeout(timer);
          waiters = waiters.filter((w) => w !== done);
          resolve();
        }
        waiters.push(done);
      });
    },
  };
}
