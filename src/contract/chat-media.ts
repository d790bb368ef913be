// A chat's «Медиа», «Файлы», «Ссылки» and «Голосовые» in «Информация» (docs/behaviour.md §10.46): the tabs' kinds
// and their page size, shared by GET /api/conversations/:id/media and the client. No zod, no other module: the
// route table and the first bundle may import it.

/** The tabs in their order: photos, files, messages with http(s) links, voice messages. */
export const CHAT_MEDIA_KINDS = ['media', 'files', 'links', 'voice'] as const;
export type ChatMediaKind = (typeof CHAT_MEDIA_KINDS)[number];

/** One page of a tab (the client asks for this many), and the most a request may ask for. */
export const CHAT_MEDIA_PAGE = 30;
export const CHAT_MEDIA_PAGE_MAX = 100;
