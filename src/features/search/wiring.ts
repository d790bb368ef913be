// The search feature's actor provided from the real services.
import { fromPromise } from 'xstate';
import type { Services } from '../../core/app/services';
import { type SearchRequest, searchMachine } from './machines/search/search.machine';

export function wireSearch(s: Services) {
  return searchMachine.provide({
    actors: {
      find: fromPromise(async ({ input, signal }: { input: SearchRequest; signal: AbortSignal }) => ({
        ...(await s.api.call('search', { query: input, signal })),
        request: input,
      })),
    },
  });
}
