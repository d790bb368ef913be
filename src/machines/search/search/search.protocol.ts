// The search actor's protocol (systemId 'search' for the chats list; the open conversation's, registry line
// `conversationSearch`, is its view's and has none): the events the search field and its results send, and what the
// views read. Views import this module, never search.machine.ts.
import type { ResponseOf } from '../../../contract/api';
import type { SearchResult } from '../../../contract/entities';
import type { SearchKind } from '../../../contract/local-day';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const NOTHING_FOUND = 'Ничего не найдено';
export const SEARCH_LOADING = 'Загружаем…';
export const SEARCH_FAILED = 'Не удалось выполнить поиск';

export interface SearchContext {
  /** What the field holds. */
  query: string;
  /** Search only this conversation; null: all of the user's conversations. */
  conversationId: string | null;
  /** Newest first, the pages loaded so far. */
  results: SearchResult[];
  /** Where the next page starts; null when there is none. */
  nextBefore: string | null;
  /** The result chosen with the arrow keys (an index into results), -1 for none. */
  active: number;
  /** Why the last request failed (Russian, for the user). */
  error: string | null;
  /** A chosen result that is a thread reply, until the open conversation shows its thread (`search.threadShown`). */
  thread: FoundReply | null;
  /** The chips under the field («От», «В чате», «Тип», «Дата»), or `от:имя` / `в:чат` typed in the field. */
  filters: SearchFilters;
}

/** The search's filters; null: not set. Names are kept for the chips. */
export interface SearchFilters {
  from: { id: string; name: string } | null;
  chat: { id: string; title: string } | null;
  kind: SearchKind | null;
  /** Days of the user's calendar, `YYYY-MM-DD`, both inclusive. */
  since: string | null;
  until: string | null;
}

export const NO_FILTERS: SearchFilters = { from: null, chat: null, kind: null, since: null, until: null };

/** A thread reply found: its conversation opens at the root, and the thread's panel at the reply. */
export interface FoundReply {
  conversationId: string;
  rootId: string;
  messageId: string;
}

export type SearchEvent =
  | { type: 'search.input'; text: string }
  /** Empties the field and drops the filters. */
  | { type: 'search.clear' }
  | { type: 'search.retry' }
  | { type: 'search.more' }
  /** Arrow keys: the next (1) or previous (-1) result, wrapping around. */
  | { type: 'search.move'; by: 1 | -1 }
  /** Enter or a click: open the conversation at this result (the active one when index is left out). */
  | { type: 'search.choose'; index?: number }
  /** Set filters (a null clears one); the others stay. A query in the field is searched again at once. */
  | { type: 'search.filter'; filters: Partial<SearchFilters> }
  /** Narrow the search to one conversation (null: all); the field starts empty. */
  | { type: 'search.scope'; conversationId: string | null }
  /** The open conversation showed the chosen reply's thread. */
  | { type: 'search.threadShown' }
  /** The chats actor selected a conversation (its emitted `chats.selected`): a waiting thread of another one is dropped. */
  | { type: 'search.selected'; conversationId: string | null }
  | { type: 'search.signedIn'; userId: string }
  | { type: 'search.signedOut' };

/** One request to GET /api/search. */
export interface SearchRequest {
  q: string;
  conversationId?: string;
  before?: string;
  from?: string;
  kind?: SearchKind;
  since?: string;
  until?: string;
}

/** The server's answer with the request it answers, so an answer to an older query is recognised. */
export type SearchAnswer = ResponseOf<'search'> & { request: SearchRequest };

export type SearchRef = MachineRef<SearchContext, SearchEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/search/search.effects.ts). */
export interface SearchEffects {
  /** GET /api/search; resolves the answer together with its request. */
  find: PromiseActorLogic<SearchAnswer, SearchRequest>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    /** Message search of the chats list (all conversations). */
    search: SearchRef;
  }
  interface OwnedActors {
    /** Message search within the open conversation. */
    conversationSearch: SearchRef;
  }
}
