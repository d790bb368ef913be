// The views of the group invites feature that other features and the app's routes render.
import { lazyView } from '../shared/lazy-view';

/** The invite page loads when a link is opened. */
export const LazyJoinPage = lazyView(() => import('./JoinPage').then((m) => m.JoinPage));
