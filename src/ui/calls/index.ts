// The views of the calls feature that other features and the app's routes render.
import { lazyView } from '../shared/lazy-view';
export { CallLayer } from './CallLayer';

export const LazyCallsPage = lazyView(() => import('./CallsPage').then((m) => m.CallsPage));
