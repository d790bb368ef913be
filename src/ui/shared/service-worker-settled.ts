// When a lazy chunk may be fetched ahead of need without costing the first load anything: once the service worker
// is active, its precache has put every chunk in the HTTP cache, so the page reads it from there instead of
// downloading it a second time during the first load (the call overlay, the conversation's views).
/**
 * How long a preload waits for a service worker that may never install (private mode, a failed registration). A busy
 * phone can take more than 10 s to precache; a preload made before that downloads the views a second time.
 */
export const WORKER_WAIT_MS = 30_000;

/** Resolves once a service worker is active, or at once where none is registered (development, tests), or after WORKER_WAIT_MS. */
export function serviceWorkerSettled(): Promise<void> {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator))
    return Promise.resolve();
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, WORKER_WAIT_MS));
  return Promise.race([navigator.serviceWorker.ready.then(() => undefined), timeout]);
}
