// A search actor (the chats list's 'search' or the open conversation's 'conversationSearch') as plain values and
// callbacks for the field and the results.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { SearchResult } from '../../contract/entities';
import { useSystemActor } from '../app/RuntimeContext';
import type { OwnedRef } from '../app/useOwnedActor';
import { NO_FILTERS, type SearchFilters, type SearchRef } from '../../machines/search/search/search.protocol';

export type SearchStatus = 'empty' | 'loading' | 'results' | 'nothing' | 'failed';

export interface SearchView {
  query: string;
  status: SearchStatus;
  results: SearchResult[];
  /** The result chosen with the arrow keys, -1 for none. */
  active: number;
  hasMore: boolean;
  paging: boolean;
  /** Why the last request failed (the first page, or the next one while results stay). */
  error: string | null;
  pagingFailed: boolean;
  filters: SearchFilters;
  input(text: string): void;
  filter(filters: Partial<SearchFilters>): void;
  clear(): void;
  retry(): void;
  more(): void;
  move(by: 1 | -1): void;
  choose(index?: number): void;
  scope(conversationId: string | null): void;
}

/** The chats list's search (session-long). */
export function useSearch(id: 'search'): SearchView {
  const actor = useSystemActor(id);
  if (!actor) throw new Error(`the ${id} actor is not running`);
  return useSearchView(actor);
}

const none: SearchResult[] = [];

/** A search actor's view; with no snapshot yet (the open conversation's, not yet spawned) an empty search. */
export function useSearchView(actor: OwnedRef<SearchRef> | undefined): SearchView {
  const query = useSelector(actor, (s) => s?.context.query ?? '');
  const results = useSelector(actor, (s) => s?.context.results ?? none);
  const active = useSelector(actor, (s) => s?.context.active ?? -1);
  const hasMore = useSelector(actor, (s) => (s ? s.context.nextBefore !== null : false));
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const status = useSelector(actor, (s): SearchStatus => {
    for (const tag of ['loading', 'results', 'nothing', 'failed'] as const) if (s?.hasTag(tag)) return tag;
    return 'empty';
  });
  const paging = useSelector(actor, (s) => s?.hasTag('paging') ?? false);
  const pagingFailed = useSelector(actor, (s) => s?.hasTag('pagingFailed') ?? false);
  const filters = useSelector(actor, (s) => s?.context.filters ?? NO_FILTERS);
  const callbacks = useMemo(
    () => ({
      input: (text: string) => actor?.send({ type: 'search.input', text }),
      filter: (filters: Partial<SearchFilters>) => actor?.send({ type: 'search.filter', filters }),
      clear: () => actor?.send({ type: 'search.clear' }),
      retry: () => actor?.send({ type: 'search.retry' }),
      more: () => actor?.send({ type: 'search.more' }),
      move: (by: 1 | -1) => actor?.send({ type: 'search.move', by }),
      choose: (index?: number) => actor?.send({ type: 'search.choose', index }),
      scope: (conversationId: string | null) => actor?.send({ type: 'search.scope', conversationId }),
    }),
    [actor],
  );
  return {
    query,
    status,
    results,
    active,
    hasMore,
    paging,
    error,
    pagingFailed,
    filters,
    ...callbacks,
  };
}

/** The id of a result's row, for aria-activedescendant. */
export const resultRowId = (prefix: string, index: number) => `${prefix}-result-${index}`;
