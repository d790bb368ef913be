// The views of the profile feature that other features and the app's routes render.
import { lazyView } from '../shared/lazy-view';
export { useAvatarEditor } from './useAvatarEditor';
export { useOwnUser } from './useOwnUser';

/** The profile dialog (with the crop editor) loads when first opened. */
export const LazyProfileDialog = lazyView(() => import('./ProfileDialog').then((m) => m.ProfileDialog));
