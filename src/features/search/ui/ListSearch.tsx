// The chats list's search: the field (in the page's first bundle) and its results (a chunk of their own,
// fetched when the field is first focused or a search starts).
import { lazyView } from '../../../shared/ui/lazy-view';
import type { ConversationEntry } from '../../../contract/entities';
import { SearchField } from './SearchField';
import type { SearchView } from './useSearch';

export const LazySearchResults = lazyView(() => import('./SearchResults').then((m) => m.SearchResults));

const ID = 'chat-search';

/** The field for the list's head. */
export function ListSearchField(props: { search: SearchView }) {
  const { search } = props;
  return (
    <SearchField
      value={search.query}
      expanded={search.status === 'results'}
      active={search.active}
      idPrefix={ID}
      label="Поиск по сообщениям"
      shortcut
      onFocus={() => void LazySearchResults.preload()}
      onInput={search.input}
      onMove={search.move}
      onChoose={() => search.choose()}
      onClear={search.clear}
    />
  );
}

/** The results in place of the tiles while a search is shown; null when the field is empty. */
export function listSearchResults(search: SearchView, entries: ConversationEntry[], me: string | null) {
  if (search.status === 'empty') return null;
  return (
    <LazySearchResults
      idPrefix={ID}
      status={search.status}
      results={search.results}
      active={search.active}
      hasMore={search.hasMore}
      paging={search.paging}
      error={search.error}
      pagingFailed={search.pagingFailed}
      entries={entries}
      me={me}
      onChoose={search.choose}
      onMore={search.more}
      onRetry={search.retry}
    />
  );
}
