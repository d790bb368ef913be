// The views of the settings feature that other features and the app's routes render.
import { lazyView } from '../shared/lazy-view';

export const LazySettingsPage = lazyView(() => import('./SettingsPage').then((m) => m.SettingsPage));
