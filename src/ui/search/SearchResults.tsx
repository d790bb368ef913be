// The results of a search (loaded on demand, apart from the chats page's first bundle): the chats and people found
// by name, and the messages grouped by conversation, each with the sender, the date and the snippet with the matching
// words marked; more results as the list is scrolled to its end. Renders from props alone.
import { Fragment, type ReactNode, useEffect, useRef } from 'react';
import type { ConversationEntry, PublicUser, SearchResult } from '../../contract/entities';
import { NOTHING_FOUND, SEARCH_LOADING } from '../../machines/search/search/search.protocol';
import { conversationTitle, displayName, formatDate, formatTime } from '../../contract/format';
import { resultRowId, type SearchStatus } from './useSearch';
import './search.css';

export interface SearchResultsProps {
  idPrefix: string;
  status: SearchStatus;
  results: SearchResult[];
  active: number;
  hasMore: boolean;
  paging: boolean;
  error: string | null;
  pagingFailed: boolean;
  /** The user's conversations, for titles and senders' names. */
  entries: ConversationEntry[];
  me: string | null;
  /** Leave out the conversation's title (a search within one conversation). */
  oneConversation?: boolean;
  onChoose(index: number): void;
  onMore(): void;
  onRetry(): void;
}

/** The snippet as text and <mark>s. */
export function Snippet(props: { text: string; highlights: [number, number][] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of props.highlights) {
    if (start < at || end > props.text.length) continue;
    if (start > at) parts.push(props.text.slice(at, start));
    parts.push(<mark key={start}>{props.text.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(props.text.slice(at));
  return <>{parts}</>;
}

function when(iso: string): string {
  const d = new Date(iso);
  return d.toDateString() === new Date().toDateString() ? formatTime(d) : formatDate(d);
}

export function SearchResults(props: SearchResultsProps) {
  const end = useRef<HTMLDivElement>(null);
  const { hasMore, paging, pagingFailed, onMore, status } = props;
  // The end of the list coming into view asks for the next page.
  useEffect(() => {
    const el = end.current;
    if (
      !el ||
      !hasMore ||
      paging ||
      pagingFailed ||
      status !== 'results' ||
      typeof IntersectionObserver === 'undefined'
    )
      return;
    const seen = new IntersectionObserver((items) => {
      if (items.some((i) => i.isIntersecting)) onMore();
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [hasMore, paging, pagingFailed, onMore, status]);

  // The active row stays in view while the arrows walk the list.
  useEffect(() => {
    if (props.active < 0) return;
    document.getElementById(resultRowId(props.idPrefix, props.active))?.scrollIntoView?.({ block: 'nearest' });
  }, [props.active, props.idPrefix]);

  if (status === 'loading') {
    return (
      <p className="search-status" role="status">
        {SEARCH_LOADING}
      </p>
    );
  }
  if (status === 'nothing') {
    return (
      <p className="search-status" role="status">
        {NOTHING_FOUND}
      </p>
    );
  }
  if (status === 'failed') {
    return (
      <div className="search-status" role="alert">
        <p>{props.error}</p>
        <button type="button" className="button primary" onClick={props.onRetry}>
          Повторить
        </button>
      </div>
    );
  }
  if (status !== 'results') return null;

  const byId = new Map(props.entries.map((e) => [e.conversation.id, e.conversation]));
  const sender = (r: SearchResult) => {
    if (r.message.senderId === props.me) return 'Вы';
    const user = byId.get(r.conversationId)?.participants.find((p) => p.user.id === r.message.senderId)?.user;
    return user ? displayName(user) : '';
  };
  return (
    <div className="search-results" data-testid={`${props.idPrefix}-results`}>
      <p className="sr-only" role="status">
        {`Найдено: ${props.results.length}${props.hasMore ? '+' : ''}`}
      </p>
      <ul id={`${props.idPrefix}-results`} aria-label="Результаты поиска" className="search-list">
        {props.results.map((r, i) => {
          const conversation = byId.get(r.conversationId);
          const header = !props.oneConversation && props.results[i - 1]?.conversationId !== r.conversationId;
          return (
            <Fragment key={r.message.id}>
              {header && (
                <li className="search-group">
                  {/* A secret chat's matches come from this device's own index: marked like its tile. */}
                  {conversation?.secret && (
                    <span className="chat-tile-mark" title="Секретный чат">
                      🔒<span className="sr-only">Секретный чат: </span>
                    </span>
                  )}
                  {conversation ? conversationTitle(conversation, props.me) : 'Беседа'}
                </li>
              )}
              <li>
                <button
                  type="button"
                  id={resultRowId(props.idPrefix, i)}
                  aria-current={i === props.active ? 'true' : undefined}
                  className={`search-result${i === props.active ? ' active' : ''}`}
                  data-testid="search-result"
                  data-message-id={r.message.id}
                  onClick={() => props.onChoose(i)}
                >
                  <span className="search-result-meta">
                    <span className="search-result-sender">{sender(r)}</span>
                    <time dateTime={r.message.createdAt}>{when(r.message.createdAt)}</time>
                  </span>
                  <span className="search-result-snippet">
                    <Snippet text={r.snippet} highlights={r.highlights} />
                  </span>
                </button>
              </li>
            </Fragment>
          );
        })}
      </ul>
      <div ref={end} className="search-end">
        {props.paging && (
          <p className="search-status" role="status">
            {SEARCH_LOADING}
          </p>
        )}
        {props.pagingFailed && (
          <div className="search-status" role="alert">
            <p>{props.error}</p>
            <button type="button" className="button" onClick={props.onRetry}>
              Повторить
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

export default SearchResults;

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

// The filter chips come in this chunk too (ListSearch loads them with the results).
export { SearchFilters } from './SearchFilters';
