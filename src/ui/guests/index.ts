// The views of the guests feature that the app's routes render.
import { lazyView } from '../shared/lazy-view';

/** The guest link's page (/g/<code>): loads only when such a link is opened. */
export const LazyGuestPage = lazyView(() => import('./GuestPage').then((m) => m.GuestPage));
/** The door of an open plain call: loads with the call overlay. */
export const LazyGuestDoor = lazyView(() => import('./GuestDoor').then((m) => m.GuestDoor));
