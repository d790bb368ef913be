// The search feature's view hooks for code that loads after the first paint (the chats page's conversation pane).
// Apart from ui/index.ts on purpose: a module re-exported by an index the first bundle loads is bundled with it.
import { lazyView } from '../shared/lazy-view';
import type { ConversationSearchBarProps } from './ConversationSearchBar';
export { useConversationSearch } from './useConversationSearch';
export { useListFoundThread } from './useFoundThread';

/** Search within the conversation loads when the header's magnifier opens it. */
export const LazyConversationSearchBar = lazyView<ConversationSearchBarProps>(() =>
  import('./ConversationSearchBar').then((m) => m.ConversationSearchBar),
);
