// «Каталог участников» and «Открытые группы» (docs/behaviour.md §10.25): when the administrator turns the directory
// on, members see each other and the open groups; when it is off, both lists answer 404 like an unknown address.
import { z } from 'zod';
import { Id, NUL_MESSAGE, noNul, PublicUser } from './entities';

/** How many people or groups one page of the directory holds. */
export const DIRECTORY_PAGE = 50;
export const DIRECTORY_QUERY_MAX = 100;

export const DirectoryQuery = z.strictObject({
  /** A part of a name or @username, or an EBLID; empty lists everyone. */
  q: z
    .string()
    .trim()
    .max(DIRECTORY_QUERY_MAX, `Запрос — не длиннее ${DIRECTORY_QUERY_MAX} символов`)
    .refine(noNul, NUL_MESSAGE)
    .optional(),
  /** `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^\d{1,6}$/, 'Неверная страница')
    .optional(),
});
export const DirectoryUsersResponse = z.object({ users: z.array(PublicUser), nextCursor: z.string().nullable() });

export const OpenGroup = z.object({
  id: Id,
  title: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  memberCount: z.number().int(),
  /** The caller is in it already. */
  member: z.boolean(),
});
export type OpenGroup = z.infer<typeof OpenGroup>;
export const DirectoryGroupsResponse = z.object({ groups: z.array(OpenGroup), nextCursor: z.string().nullable() });

/** The route's 404 when the directory is off: word for word what an unknown address answers (server/http/errors.ts). */
export const unknownAddress = (method: string, path: string) => `Нет такого адреса: ${method} ${path}`;
