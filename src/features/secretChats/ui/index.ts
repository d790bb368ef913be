// The views of secret chats that other features render. The dialog loads when first opened.
import { lazyView } from '../../../shared/ui/lazy-view';
import type { SecretDialogProps } from './SecretDialog';

export { EncryptedText } from './EncryptedText';
export { SecretChatNotice } from './SecretChatNotice';
export { SecretDevice } from './SecretDevice';
export { useSecretPreview } from './useSecretPreview';
export const LazySecretDialog = lazyView<SecretDialogProps>(() => import('./SecretDialog').then((m) => m.SecretDialog));
