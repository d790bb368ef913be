// The incoming-call dialog and the call overlay, split off the chats page's first bundle (bench/client/bundle.ts). The call
// machine stays spawned from the root; only these views load later: useCallLayer preloads them as soon as the
// realtime connection is up, so a ring shows at once.
import { lazyView } from '../lazy-view';

export const LazyIncomingCallDialog = lazyView(() => import('./IncomingCallDialog').then((m) => m.IncomingCallDialog));
export const LazyCallOverlay = lazyView(() => import('./CallOverlay').then((m) => m.CallOverlay));

export const preloadCallViews = () => Promise.all([LazyIncomingCallDialog.preload(), LazyCallOverlay.preload()]).then(() => undefined);
