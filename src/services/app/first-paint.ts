// The chat list paints first. On a signed-in load of the list (main.tsx holds the gate), code the list does not need
// to show — the realtime connection, the API client's transport, the offline store's writes, notifications, the
// report notices, the secret-chat device and «Обсуждения» — is fetched once the list has painted and the page is
// idle, so its download, compilation and evaluation do not compete with the list on a phone's CPU
// (bench/client, part d). Those loads start then, so their code is here shortly after the list (a prefetch that
// does not count against it). Nothing waits while nothing holds the gate (every other page, and tests).

interface Scheduler {
  frame(run: () => void): void;
  idle(run: () => void): void;
  after(ms: number, run: () => void): void;
}

/** After the frame that painted: requestAnimationFrame runs before it, a posted message once it is done. */
const browserScheduler: Scheduler = {
  frame(run) {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        run();
      };
      channel.port2.postMessage(null);
    });
  },
  idle(run) {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(run, 0);
  },
  after(ms, run) {
    setTimeout(run, ms);
  },
};

/** At most this long after the list painted before the deferred code is fetched, idle or not. */
export const IDLE_TIMEOUT_MS = 500;
/** If the list never shows (signed out meanwhile, the server down), the deferred code goes after this long. */
export const FIRST_PAINT_FALLBACK_MS = 4_000;

let waiting: { promise: Promise<void>; open(): void; shown: boolean; scheduler: Scheduler } | null = null;

/** Holds the deferred loads until the list has painted (or the fallback time has passed). */
export function holdUntilFirstPaint(scheduler: Scheduler = browserScheduler): void {
  if (waiting) return;
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = () => {
      waiting = null;
      resolve();
    };
  });
  waiting = { promise, open, shown: false, scheduler };
  scheduler.after(FIRST_PAINT_FALLBACK_MS, open);
}

/** The list is on the screen (rows or its empty note): the deferred loads go once that frame is painted and idle. */
export function firstScreenShown(): void {
  const w = waiting;
  if (!w || w.shown) return;
  w.shown = true;
  w.scheduler.frame(() => w.scheduler.idle(w.open));
}

/** Lets the held loads go now (tests). */
export function releaseFirstPaint(): void {
  waiting?.open();
}

/** Whether deferred loads are still held. */
export function firstPaintPending(): boolean {
  return waiting !== null;
}

/** Runs `load` now, or once the list has painted while the gate is held. */
export function afterFirstPaint<T>(load: () => Promise<T>): Promise<T> {
  return waiting ? waiting.promise.then(load) : load();
}
