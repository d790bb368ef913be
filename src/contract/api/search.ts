// Message search (server/search/).
// Each route's method and path are in ./search.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { Id, NUL_MESSAGE, noNul, SearchResult } from '../entities';
import { LIMITS } from '../limits';
import { dayStartMs, SEARCH_KINDS, type SearchKind, TZ_OFFSET_MAX, TZ_OFFSET_MIN } from '../local-day';
import { searchRoutes } from './search.routes';
import { withSchemas } from './with-schemas';

/** A day of the user's calendar (../local-day.ts). */
export const LocalDay = z
  .string()
  .max(10)
  .refine((d) => dayStartMs(d, 0) !== null, 'Дата — в виде ГГГГ-ММ-ДД');

/** The user's offset from UTC, minutes east. */
export const TzOffset = z
  .string()
  .max(6)
  .regex(/^[+-]?\d{1,4}$/, 'Часовой пояс — целое число минут')
  .optional()
  .transform((v) => (v === undefined ? 0 : Number(v)))
  .pipe(z.number().min(TZ_OFFSET_MIN, 'Такого часового пояса нет').max(TZ_OFFSET_MAX, 'Такого часового пояса нет'));

/**
 * GET /api/search: `q` is free text (words, "a phrase in quotes"); operators of the index are never read from it. It
 * may be empty when a filter narrows instead: then the newest messages that pass the filters are listed.
 */
export const SearchQuery = z
  .strictObject({
    q: z
      .string()
      .max(LIMITS.searchQueryMax, `Запрос — не длиннее ${LIMITS.searchQueryMax} символов`)
      .refine(noNul, NUL_MESSAGE)
      .default(''),
    conversationId: Id.optional(),
    /** A message id from `nextBefore`: results strictly older than it. */
    before: Id.optional(),
    limit: z.coerce.number().int().min(1).max(LIMITS.searchPageMax).default(LIMITS.searchPageDefault),
    /** «от:»: only this person's messages. */
    from: Id.optional(),
    /** «Тип»: фото, файлы, ссылки, голосовые. */
    kind: z
      .string()
      .max(20)
      .refine((k): k is SearchKind => (SEARCH_KINDS as readonly string[]).includes(k), 'Неизвестный тип сообщений')
      .optional(),
    /** «Дата»: from this day on (the user's day, `tz`). */
    since: LocalDay.optional(),
    /** «Дата»: up to this day, inclusive. */
    until: LocalDay.optional(),
    tz: TzOffset,
  })
  // Words, or a filter that narrows without them (a person, a kind, a date); the chat alone is the chat itself.
  .refine((q) => q.q.trim().length > 0 || q.from || q.kind || q.since || q.until, {
    message: 'Введите текст для поиска или выберите фильтр',
    path: ['q'],
  })
  .refine((q) => !q.since || !q.until || q.since <= q.until, {
    message: 'Дата «по» раньше даты «с»',
    path: ['until'],
  });
export const SearchResponse = z.object({ results: z.array(SearchResult), nextBefore: Id.nullable() });

/** The routes of ./search.routes with their schemas. */
export const searchApi = withSchemas(searchRoutes, {
  search: { query: SearchQuery, response: SearchResponse },
});
