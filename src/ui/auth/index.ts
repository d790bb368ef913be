// The views of the auth feature that other features and the app's routes render.
import { lazyView } from '../shared/lazy-view';

/** Sign-in and registration: only a signed-out visitor fetches them (tests preload them). */
export const LazyAuthPages = lazyView(() => import('./AuthPages').then((m) => m.AuthPages));
/** The page a password-reset link opens (/reset/<token>), signed in or not. */
export const LazyResetPasswordPage = lazyView(() => import('./ResetPasswordPage').then((m) => m.ResetPasswordPage));
