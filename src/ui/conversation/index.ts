// The views of the conversation feature that other features and the app's routes render.

import { lazyView } from '../shared/lazy-view';
import type { ConversationViewProps } from './ConversationView';

export type { ConversationViewProps } from './ConversationView';
export { NoConversation } from './NoConversation';
/**
 * The open conversation's pane (messages, composer, lightbox): a chunk of its own, fetched when a conversation is
 * opened or the list is touched (src/ui/chats/ChatsPage.tsx), not with the list.
 */
export const LazyConversationView = lazyView<ConversationViewProps>(() =>
  import('./ConversationPaneView').then((m) => m.ConversationPaneView),
);
/** The live regions for screen readers (docs/behaviour.md §10.48): fetched after the chat list's first paint. */
export const LazyAnnouncer = lazyView(() => import('./Announcer').then((m) => m.Announcer), { afterFirstPaint: true });
export type { MessageMenuItem } from './message-actions';
export type { AvatarView } from '../../contract/format';
export type { ChatTileView } from './chat-tile';
export { chatTile } from './chat-tile';
export { tileTime } from './tile-line';
export { callLabel, clock, entryPreview, isMissedFor, voicePreview } from './voice-call-text';
