// The call overlay, split off the call layer's chunk (which itself loads once the chat list has painted, with the
// realtime connection that brings a ring). The call machine stays spawned from the root; the overlay loads later:
// useCallLayer preloads it once the realtime
// connection is up, so a ring shows at once — after the service worker has installed, where there is one: its
// precache fetches every chunk into the HTTP cache, so the page then reads them from there instead of downloading
// them a second time during the first load.
import { lazyView } from '../shared/lazy-view';

export { serviceWorkerSettled, WORKER_WAIT_MS } from '../shared/service-worker-settled';

/** The overlay with its chat panel (ConnectedCallOverlay): the panel's hook is in that chunk too. */
export const LazyCallOverlay = lazyView(() => import('./CallOverlay').then((m) => m.ConnectedCallOverlay));

/** A secret chat's call overlay: the same chunk's view, encrypted end to end. */
export const LazySecretCallOverlay = lazyView(() => import('./SecretCallOverlay').then((m) => m.SecretCallOverlay));

export const preloadCallViews = () => LazyCallOverlay.preload();
