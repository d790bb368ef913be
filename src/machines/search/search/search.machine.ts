// Message search as one types. Each keystroke restarts a short pause (TIMINGS.searchDebounceMs); then the query
// is sent. Typing again leaves the loading state, which stops the running request, and an answer is taken only
// for the query now in the field, so a stale answer never replaces a newer one. Results page on as the list is
// scrolled; a failed first page offers «Повторить», a failed next page keeps what is shown and may be tried
// again. Choosing a result asks the chats actor to open its conversation at that message (the conversation
// actor pages back to it, as a jump to a quote does); a thread reply opens it at the root, and the thread waits
// (`thread`) for the open conversation to show it — or until the chats actor selects another conversation, so a
// choice whose chat never opened is not shown later when that chat is opened by hand. Filters (`search.filter`:
// person, chat, kind, days) stay while one types and search again at once when a query is there, or with an empty
// field when one of them lists without words (a person, a kind, a date); an answer counts only for the query and
// filters now set.
import { assign, type EventObject, enqueueActions, fromCallback, setup } from 'xstate';
import type { SearchResult } from '../../../contract/entities';
import { failureMessage } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { chatsInbox, onChats } from '../../chats/chats/chats.protocol';
import { watchSignedInUser } from '../../session/index';
import { notWired } from '../../shared/not-wired';
import {
  NO_FILTERS,
  SEARCH_FAILED,
  type SearchAnswer,
  type SearchContext,
  type SearchEffects,
  type SearchEvent,
  type SearchFilters,
  type SearchRequest,
} from './search.protocol';

export * from './search.protocol';

const cleared = {
  query: '',
  results: [],
  nextBefore: null,
  active: -1,
  error: null,
  filters: NO_FILTERS,
} satisfies Partial<SearchContext>;

/** Filters that list without words (the server's too): a person, a kind, a date. The chat alone is the chat. */
const narrowing = (f: SearchFilters) => Boolean(f.from || f.kind || f.since || f.until);

/** What makes two requests ask the same (the page cursor aside). */
const asking = (r: SearchRequest) => JSON.stringify([r.q, r.conversationId, r.from, r.kind, r.since, r.until]);

/** An answer to the query and filters now set. */
const answers = (context: SearchContext, answer: SearchAnswer) =>
  asking(answer.request) === asking(requestFor(context));

/**
 * Results grouped by conversation, the groups in the order of their newest result, newest first within each
 * (stable): the order they are shown in, so the arrow keys walk the list from top to bottom.
 */
export function groupedByConversation(results: readonly SearchResult[]): SearchResult[] {
  const rank = new Map<string, number>();
  for (const r of results) if (!rank.has(r.conversationId)) rank.set(r.conversationId, rank.size);
  return results
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (rank.get(a.r.conversationId) ?? 0) - (rank.get(b.r.conversationId) ?? 0) || a.i - b.i)
    .map((x) => x.r);
}

function requestFor(context: SearchContext, before?: string): SearchRequest {
  const { from, chat, ...days } = context.filters;
  const request = {
    q: context.query,
    conversationId: context.conversationId ?? chat?.id,
    before,
    from: from?.id,
    ...days,
  };
  // Only what is set goes into the query string.
  return Object.fromEntries(Object.entries(request).filter(([, v]) => v)) as unknown as SearchRequest;
}

export const searchMachine = setup({
  types: {
    context: {} as SearchContext,
    events: {} as SearchEvent,
  },
  actors: {
    session: watchSignedInUser('search.signedIn', 'search.signedOut'),
    /** The chats actor's selections (its emitted `chats.selected`) as `search.selected`. */
    selections: fromCallback<EventObject, void, SearchEvent>(({ system, sendBack }) =>
      onChats(system, 'chats.selected', (e) => sendBack({ type: 'search.selected', conversationId: e.conversationId })),
    ),
    find: notWired('search.find') as SearchEffects['find'],
  },
  delays: { debounce: TIMINGS.searchDebounceMs },
  guards: {
    /** The field emptied and no filter lists without words: nothing to ask. */
    blank: ({ context, event }) =>
      event.type === 'search.input' && event.text.trim() === '' && !narrowing(context.filters),
    /** A filter set or dropped with the field empty, and none left that lists without words. */
    blankQuery: ({ context, event }) =>
      event.type === 'search.filter' &&
      context.query.trim() === '' &&
      !narrowing({ ...context.filters, ...event.filters }),
    sameText: ({ context, event }) => event.type === 'search.input' && event.text === context.query,
    answersQuery: ({ context }, answer: SearchAnswer) => answers(context, answer),
    answersWithNothing: ({ context }, answer: SearchAnswer) => answers(context, answer) && answer.results.length === 0,
    hasMore: ({ context }) => context.nextBefore !== null,
    hasResults: ({ context }) => context.results.length > 0,
    /** Another conversation was selected while a chosen reply's thread waited for its own. */
    threadElsewhere: ({ context, event }) =>
      event.type === 'search.selected' &&
      context.thread !== null &&
      context.thread.conversationId !== event.conversationId,
    chosenExists: ({ context, event }) =>
      event.type === 'search.choose' && context.results[event.index ?? context.active] !== undefined,
  },
  actions: {
    clear: assign(cleared),
    forgetThread: assign({ thread: null }),
    // Typing keeps the filters: only the clear button (or Escape) drops them.
    takeText: assign(({ context, event }) =>
      event.type === 'search.input' ? { ...cleared, query: event.text, filters: context.filters } : {},
    ),
    takeFilters: assign(({ context, event }) =>
      event.type === 'search.filter'
        ? { results: [], nextBefore: null, active: -1, error: null, filters: { ...context.filters, ...event.filters } }
        : {},
    ),
    takeScope: assign(({ event }) =>
      event.type === 'search.scope' ? { ...cleared, conversationId: event.conversationId } : {},
    ),
    takeFirstPage: assign((_, answer: SearchAnswer) => ({
      results: groupedByConversation(answer.results),
      nextBefore: answer.nextBefore,
      active: -1,
      error: null,
    })),
    takeNextPage: assign(({ context }, answer: SearchAnswer) => ({
      results: groupedByConversation([...context.results, ...answer.results]),
      nextBefore: answer.nextBefore,
      error: null,
    })),
    takeFailure: assign({ error: (_, failure: { error: unknown }) => failureMessage(failure.error, SEARCH_FAILED) }),
    move: assign({
      active: ({ context, event }) => {
        if (event.type !== 'search.move') return context.active;
        const n = context.results.length;
        if (context.active < 0) return event.by > 0 ? 0 : n - 1;
        return (context.active + event.by + n) % n;
      },
    }),
    open: enqueueActions(({ context, event, system, enqueue }) => {
      if (event.type !== 'search.choose') return;
      const index = event.index ?? context.active;
      const result = context.results[index];
      if (!result) return;
      const rootId = result.message.threadRootId ?? null;
      // A thread reply is not in the timeline: its root is, and the open conversation shows the thread at the reply.
      const thread = rootId ? { conversationId: result.conversationId, rootId, messageId: result.message.id } : null;
      enqueue.assign({ active: index, thread });
      const chats = chatsInbox(system);
      if (chats)
        enqueue.sendTo(chats, {
          type: 'chats.open',
          conversationId: result.conversationId,
          messageId: rootId ?? result.message.id,
        });
    }),
  },
}).createMachine({
  id: 'search',
  context: { ...cleared, conversationId: null, thread: null },
  invoke: [
    { id: 'session', src: 'session' },
    { id: 'selections', src: 'selections' },
  ],
  on: {
    'search.input': [
      // A key that leaves the text as it was (an arrow, Shift) starts nothing.
      { guard: 'sameText' },
      { guard: 'blank', target: '.idle', actions: 'takeText' },
      { target: '.debouncing', actions: 'takeText' },
    ],
    'search.clear': { target: '.idle', actions: 'clear' },
    'search.filter': [
      { guard: 'blankQuery', target: '.idle', actions: 'takeFilters' },
      // A chip is chosen on purpose: no pause as for keystrokes.
      { target: '.loading', reenter: true, actions: 'takeFilters' },
    ],
    'search.scope': { target: '.idle', actions: 'takeScope' },
    'search.signedOut': { target: '.idle', actions: ['clear', 'forgetThread'] },
    'search.threadShown': { actions: 'forgetThread' },
    'search.selected': { guard: 'threadElsewhere', actions: 'forgetThread' },
  },
  initial: 'idle',
  states: {
    idle: { tags: ['empty'] },
    debouncing: {
      tags: ['loading'],
      after: { debounce: 'loading' },
    },
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'find',
        src: 'find',
        input: ({ context }) => requestFor(context),
        onDone: [
          {
            guard: { type: 'answersWithNothing', params: ({ event }) => event.output },
            target: 'nothing',
            actions: { type: 'takeFirstPage', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'answersQuery', params: ({ event }) => event.output },
            target: 'found',
            actions: { type: 'takeFirstPage', params: ({ event }) => event.output },
          },
          // Belt and braces: typing stops this request, so an answer for another query cannot come; if it did,
          // ask again for the query in the field.
          { target: 'loading', reenter: true },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'takeFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: {
      tags: ['failed'],
      on: { 'search.retry': 'loading' },
    },
    found: {
      initial: 'ready',
      states: {
        ready: {
          on: { 'search.more': { guard: 'hasMore', target: 'paging' } },
        },
        paging: {
          tags: ['paging'],
          invoke: {
            id: 'findMore',
            src: 'find',
            input: ({ context }) => requestFor(context, context.nextBefore ?? undefined),
            onDone: [
              {
                guard: { type: 'answersQuery', params: ({ event }) => event.output },
                target: 'ready',
                actions: { type: 'takeNextPage', params: ({ event }) => event.output },
              },
              { target: 'ready' },
            ],
            onError: {
              target: 'pagingFailed',
              actions: { type: 'takeFailure', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        pagingFailed: {
          tags: ['pagingFailed'],
          on: { 'search.retry': 'paging', 'search.more': 'paging' },
        },
      },
      tags: ['results'],
      on: {
        'search.move': { guard: 'hasResults', actions: 'move' },
        'search.choose': { guard: 'chosenExists', actions: 'open' },
      },
    },
    nothing: { tags: ['nothing'] },
  },
});
