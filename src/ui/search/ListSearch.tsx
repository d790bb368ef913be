// The chats list's search: the field (in the page's first bundle) and its results, by name and by message (a chunk
// of their own, fetched when the field is first focused or a search starts).
import { Suspense } from 'react';
import { lazyView } from '../shared/lazy-view';
import type { ConversationEntry } from '../../contract/entities';
import { SearchField } from './SearchField';
import type { SearchFiltersProps } from './SearchFilters';
import type { NameResultsProps } from './SearchResults';
import type { SearchView } from './useSearch';
import './search.css';

export const LazySearchResults = lazyView(() => import('./SearchResults').then((m) => m.SearchResults));
const LazyNameResults = lazyView<NameResultsProps>(() => import('./SearchResults').then((m) => m.NameResults));
const LazyFilters = lazyView<SearchFiltersProps>(() => import('./SearchResults').then((m) => m.SearchFilters));

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

/**
 * The results in place of the tiles while a search is shown: chats and people by name first, then the messages
 * found; null when the field is empty.
 */
export function listSearchResults(
  search: SearchView,
  entries: ConversationEntry[],
  me: string | null,
  names?: NameResultsProps,
) {
  const byName = names && (names.chats.length > 0 || names.people.length > 0);
  const f = search.filters;
  const filtered = Object.values(f).some(Boolean);
  if (search.status === 'empty' && !byName && !filtered && !search.query) return null;
  const messages =
    search.status === 'empty' || (byName && search.status === 'nothing') ? null : (
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
  return (
    <Suspense fallback={null}>
      <LazyFilters
        filters={f}
        query={search.query}
        entries={entries}
        me={me}
        onFilter={search.filter}
        onInput={search.input}
      />
      {names && <LazyNameResults {...names} />}
      {messages}
    </Suspense>
  );
}
