// The conversation feature's view hooks for code that loads after the first paint (the chats page's conversation
// pane, src/ui/chats/ConversationPane.tsx). Apart from ui/index.ts on purpose: a module re-exported by an
// index the first bundle loads is bundled with that index, used there or not.
import { lazyView } from '../shared/lazy-view';
import type { LightboxProps } from './Lightbox';
import type { MessageMenuProps } from './MessageMenu';
import type { VoicePlayerProps } from './voice/VoicePlayer';
export { useConversationPane } from './useConversationPane';
export { PreviewCardsContext } from './usePreviewCard';
export { CopyTextContext } from './copy-text';
export { EditHistoryContext } from './edit-history';
/** A message's text (links, mentions, formatting) and its «изменено», as the timeline shows them (thread replies). */
export { MessageText } from './MessageText';
export { EditedMark } from './MessageMarks';
export { editedTitle } from './day-label';
export { mentionViews } from './view-model';

/** The image lightbox, a message's menu and the voice player, for the thread panel's replies (chunks of their own). */
export const LazyLightbox = lazyView<LightboxProps>(() => import('./Lightbox').then((m) => m.Lightbox));
export const LazyMessageMenu = lazyView<MessageMenuProps>(() => import('./MessageMenu').then((m) => m.MessageMenu));
export const LazyVoicePlayer = lazyView<VoicePlayerProps>(() =>
  import('./voice/VoicePlayer').then((m) => m.VoicePlayer),
);
