// The views of secret chats that other features render. All of them load on demand: a user
// without secret chats never fetches them (the chats page's first bundle has a budget, bench/client/bundle.ts).
import { lazyView } from '../shared/lazy-view';
import type { EncryptedTextProps } from './EncryptedText';
import type { SecretChatNoticeProps } from './SecretChatNotice';
import type { SecretDialogProps } from './SecretDialog';
import type { SecretTilePreviewProps } from './SecretTilePreview';
import type { SecretVerifyDialogProps } from './SecretVerifyDialog';

export const LazySecretDialog = lazyView<SecretDialogProps>(() => import('./SecretDialog').then((m) => m.SecretDialog));
/** This browser as a device while the chats page is open: the background registration, the device actor when needed. */
export const LazySecretDevice = lazyView<{ userId: string; now: boolean }>(() =>
  import('./SecretDevice').then((m) => m.SecretDevice),
);
export const LazyEncryptedText = lazyView<EncryptedTextProps>(() =>
  import('./EncryptedText').then((m) => m.EncryptedText),
);
export const LazySecretChatNotice = lazyView<SecretChatNoticeProps>(() =>
  import('./SecretChatNotice').then((m) => m.SecretChatNotice),
);
/** A secret chat's tile preview: the latest message's text once this device has read it. */
export const LazySecretTilePreview = lazyView<SecretTilePreviewProps>(() =>
  import('./SecretTilePreview').then((m) => m.SecretTilePreview),
);
/** Settings' card «Ключ восстановления» (the recovery key's dialog loads with it). */
export const LazySecretRecoverySection = lazyView<{ userId: string }>(() =>
  import('./RecoverySection').then((m) => m.RecoverySection),
);
/** «Проверить шифрование»: the fingerprint of the members' keys and their devices. */
export const LazySecretVerifyDialog = lazyView<SecretVerifyDialogProps>(() =>
  import('./SecretVerifyDialog').then((m) => m.SecretVerifyDialog),
);
