// The views of the search feature that other features and the app's routes render.
import type { ConversationSearchBarProps } from './ConversationSearchBar';
import { lazyView } from '../shared/lazy-view';

export type { ConversationSearchBarProps } from './ConversationSearchBar';
export { ListSearchField, listSearchResults } from './ListSearch';
export { useSearch } from './useSearch';
export { useNameSearch } from './useNameSearch';

/** Search within the conversation loads when the header's magnifier opens it. */
export const LazyConversationSearchBar = lazyView<ConversationSearchBarProps>(() =>
  import('./ConversationSearchBar').then((m) => m.ConversationSearchBar),
);
