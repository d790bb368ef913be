// The views of the administration feature that the app's routes and menu render. The page loads on first visit.
import { lazyView } from '../shared/lazy-view';

export { useAdminAccess } from './useAdminAccess';
export const LazyAdminPage = lazyView(() => import('./AdminPage').then((m) => m.AdminPage));
