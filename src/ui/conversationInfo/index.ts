// The views of the conversation info feature that other features render.
import { lazyView } from '../shared/lazy-view';
import type { ConversationInfoProps } from './useConversationInfo';

export type { ConversationInfoProps } from './useConversationInfo';
export { useConversationInfo } from './useConversationInfo';
/** Loaded when first opened, keeping it out of the chats page's first bundle. */
export const LazyConversationInfo = lazyView<ConversationInfoProps>(() =>
  import('./ConversationInfo').then((m) => m.ConnectedConversationInfo),
);
