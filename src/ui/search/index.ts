// The views of the search feature that other features and the app's routes render.

export type { ConversationSearchBarProps } from './ConversationSearchBar';
export { ListSearchField, listSearchResults } from './ListSearch';
export { useSearch } from './useSearch';
export { useNameSearch } from './useNameSearch';
