// The secret chats' views and view hooks for code that loads after the first paint (the chats page's conversation
// pane, its messages, settings). Apart from index.ts on purpose: a module re-exported by an index the first bundle
// loads is bundled with it, and so would their loaders be.
import { lazyView } from '../shared/lazy-view';
import type { EncryptedTextProps } from './EncryptedText';
import type { SecretChatNoticeProps } from './SecretChatNotice';
import type { SecretVerifyDialogProps } from './SecretVerifyDialog';

export { type TimelineLine, useSecretNotices } from './useSecretNotices';

export const LazyEncryptedText = lazyView<EncryptedTextProps>(() =>
  import('./EncryptedText').then((m) => m.EncryptedText),
);
export const LazySecretChatNotice = lazyView<SecretChatNoticeProps>(() =>
  import('./SecretChatNotice').then((m) => m.SecretChatNotice),
);
/** Settings' card «Ключ восстановления» (the recovery key's dialog loads with it). */
export const LazySecretRecoverySection = lazyView<{ userId: string }>(() =>
  import('./RecoverySection').then((m) => m.RecoverySection),
);
/** «Проверить шифрование»: the fingerprint of the members' keys and their devices. */
export const LazySecretVerifyDialog = lazyView<SecretVerifyDialogProps>(() =>
  import('./SecretVerifyDialog').then((m) => m.SecretVerifyDialog),
);
