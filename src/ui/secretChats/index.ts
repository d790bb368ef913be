// The views of secret chats that the chats page's first screen renders. All of them load on demand: a user
// without secret chats never fetches them (the chats page's first bundle has a budget, bench/client/bundle.ts).
// Those only later chunks render (the conversation pane, its messages, settings) are in deferred.ts.
import { lazyView } from '../shared/lazy-view';
import type { SecretDialogProps } from './SecretDialog';
import type { SecretTilePreviewProps } from './SecretTilePreview';

export const LazySecretDialog = lazyView<SecretDialogProps>(() => import('./SecretDialog').then((m) => m.SecretDialog));
/** This browser as a device while the chats page is open: the background registration, the device actor when needed. */
export const LazySecretDevice = lazyView<{ userId: string; now: boolean }>(
  () => import('./SecretDevice').then((m) => m.SecretDevice),
  { afterFirstPaint: true },
);
/** A secret chat's tile preview: the latest message's text once this device has read it. */
export const LazySecretTilePreview = lazyView<SecretTilePreviewProps>(() =>
  import('./SecretTilePreview').then((m) => m.SecretTilePreview),
);
