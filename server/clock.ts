// The time that the server's own rules run on: token lifetimes and expiry, sockets closed when their token runs
// out, the login lock, and the windows that gather or hold back what users are told (typing notices, read
// announcements, pushes). One clock per server instance (createServer's options, the `clock` decorator); the system
// clock unless a test hands in one it moves itself. Timers inside I/O batching (the writers' few milliseconds of
// gathering, checkpoints) stay on the real clock: they are no rule a user sees.
export interface ClockTimer {
  /** As Node's Timeout.unref: the timer does not keep the process alive. */
  unref(): unknown;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer | null | undefined): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
};
