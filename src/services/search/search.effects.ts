// The search feature's actor provided from the real services.
import { fromPromise } from 'xstate';
import { chatList } from '../../machines/chats/chats/chats.protocol';
import { type SearchEffects, searchMachine, type SearchRequest } from '../../machines/search/search/search.machine';
import type { AnySystem } from '../../machines/shared/system';
import type { Services } from '../app/services';

/** The user's secret chats in the chats list (their messages are searched on this device). */
function secretChats(system: AnySystem): Set<string> {
  const entries = chatList(system)?.entries ?? [];
  return new Set(entries.filter((e) => e.conversation.secret).map((e) => e.conversation.id));
}

export function wireSearch(s: Services) {
  return searchMachine.provide({
    actors: {
      find: fromPromise(
        async ({ input, signal, system }: { input: SearchRequest; signal: AbortSignal; system: AnySystem }) => {
          // Days are the user's: the offset from UTC of the first day asked (east positive).
          const day = input.since ?? input.until;
          const tz = day ? { tz: String(-new Date(`${day}T12:00`).getTimezoneOffset()) } : {};
          const server = (query: SearchRequest) => s.api.call('search', { query: { ...query, ...tz }, signal });
          const secretIds = secretChats(system);
          const userId = s.currentUserId();
          // A next page of a merged search goes back to the merge even if no secret chat is left: its cursor is the
          // merge's own (secret-search.ts, LOCAL_CURSOR_PREFIX), never to be sent to the server.
          const merged = input.before?.startsWith('secret-page-') ?? false;
          // This device's index of secret chats has no filters: a filtered search is the server's alone.
          const filtered = Boolean(input.from || input.kind || input.since || input.until);
          if ((secretIds.size === 0 && !merged) || !userId || filtered)
            return { ...(await server(input)), request: input };
          // Secret chats' matches come from this device's local index, merged by time (its code loads only here).
          const { searchWithSecretChats } = await import('../secretChats/secretChats.effects');
          return { ...(await searchWithSecretChats({ userId, request: input, secretIds, server })), request: input };
        },
      ),
    } satisfies SearchEffects,
  });
}
