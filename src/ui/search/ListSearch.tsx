// The chats list's search: the field (in the page's first bundle) and its results (a chunk of their own,
// fetched when the field is first focused or a search starts).
import { lazyView } from '../shared/lazy-view';
import type { ConversationEntry, PublicUser } from '../../contract/entities';
import { displayName } from '../../contract/format';
import { SearchField } from './SearchField';
import type { SearchView } from './useSearch';
import './search.css';

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

export interface NameResultsProps {
  chats: { id: string; title: string }[];
  people: PublicUser[];
  openChat(conversationId: string): void;
  openPerson(userId: string): void;
}

/** Chats and people found by name, above the messages found. */
export function NameResults(props: NameResultsProps) {
  if (props.chats.length === 0 && props.people.length === 0) return null;
  return (
    <div className="name-results" data-testid="name-results">
      {props.chats.length > 0 && (
        <section aria-labelledby="found-chats">
          <h2 id="found-chats" className="search-group">
            Чаты
          </h2>
          <ul className="search-list">
            {props.chats.map((c) => (
              <li key={c.id}>
                <button type="button" className="search-result name-hit" onClick={() => props.openChat(c.id)}>
                  {c.title}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {props.people.length > 0 && (
        <section aria-labelledby="found-people">
          <h2 id="found-people" className="search-group">
            Люди
          </h2>
          <ul className="search-list">
            {props.people.map((p) => (
              <li key={p.id}>
                <button type="button" className="search-result name-hit" onClick={() => props.openPerson(p.id)}>
                  {displayName(p)} <span className="name-hit-username">@{p.username}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
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
  if (search.status === 'empty' && !byName) return null;
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
    <>
      {names && <NameResults {...names} />}
      {messages}
    </>
  );
}
