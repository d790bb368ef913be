// The views of the calls feature that other features and the app's routes render.
import { lazyView } from '../shared/lazy-view';

export const LazyCallsPage = lazyView(() => import('./CallsPage').then((m) => m.CallsPage));

/**
 * The incoming-call dialog, the overlay and the call's notices: a ring comes over the realtime connection, whose code
 * itself loads once the chat list has painted, so the layer is fetched then too, beside it.
 */
export const CallLayer = lazyView(() => import('./CallLayer').then((m) => m.CallLayer), { afterFirstPaint: true });
