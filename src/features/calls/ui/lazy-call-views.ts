// The call overlay, split off the chats page's first bundle (bench/client/bundle.ts); the incoming-call dialog is in
// it, so a ring is answerable at once. The call machine stays spawned from the root; the overlay loads later:
// useCallLayer preloads it once the realtime
// connection is up, so a ring shows at once — after the service worker has installed, where there is one: its
// precache fetches every chunk into the HTTP cache, so the page then reads them from there instead of downloading
// them a second time during the first load.
import { lazyView } from '../../../shared/ui/lazy-view';

export const LazyCallOverlay = lazyView(() => import('./CallOverlay').then((m) => m.CallOverlay));

/** How long a preload waits for a service worker that may never install (private mode, a failed registration). */
export const WORKER_WAIT_MS = 10_000;

/** Resolves once a service worker is active, or at once where none is registered (development, tests), or after WORKER_WAIT_MS. */
export function serviceWorkerSettled(): Promise<void> {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator))
    return Promise.resolve();
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, WORKER_WAIT_MS));
  return Promise.race([navigator.serviceWorker.ready.then(() => undefined), timeout]);
}

export const preloadCallViews = () => LazyCallOverlay.preload();
