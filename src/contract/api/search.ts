// Message search (server/search/).
// Each route's method and path are in ./search.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { Id, NUL_MESSAGE, noNul, SearchResult } from '../entities';
import { LIMITS } from '../limits';
import { searchRoutes } from './search.routes';
import { withSchemas } from './with-schemas';

/** GET /api/search: `q` is free text (words, "a phrase in quotes"); operators of the index are never read from it. */
export const SearchQuery = z.strictObject({
  q: z
    .string()
    .max(LIMITS.searchQueryMax, `Запрос — не длиннее ${LIMITS.searchQueryMax} символов`)
    .refine(noNul, NUL_MESSAGE)
    .refine((q) => q.trim().length > 0, 'Введите текст для поиска'),
  conversationId: Id.optional(),
  /** A message id from `nextBefore`: results strictly older than it. */
  before: Id.optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.searchPageMax).default(LIMITS.searchPageDefault),
});
export const SearchResponse = z.object({ results: z.array(SearchResult), nextBefore: Id.nullable() });

/** The routes of ./search.routes with their schemas. */
export const searchApi = withSchemas(searchRoutes, {
  search: { query: SearchQuery, response: SearchResponse },
});
