// The REST contract: every route under /api with its request and response schemas, joined from one module per
// feature (src/contract/api/<feature>.ts, named as the server folder that serves it; its zod-free routes beside it in
// <feature>.routes.ts). The server registers routes from this table. The client calls the same routes from the
// zod-free table in ./routes and takes only types from here (import type), so zod stays out of the browser bundle.
import type { z } from 'zod';
import { adminApi } from './api/admin';
import { authApi } from './api/auth';
import { callsApi } from './api/calls';
import { contactsApi } from './api/contacts';
import { conversationsApi } from './api/conversations';
import { directoryApi } from './api/directory';
import { exportApi } from './api/export';
import { foldersApi } from './api/folders';
import { guestsApi } from './api/guests';
import { healthApi } from './api/health';
import { importsApi } from './api/imports';
import { livekitApi } from './api/livekit';
import { messagesApi } from './api/messages';
import { pollsApi } from './api/polls';
import { previewsApi } from './api/previews';
import { pushApi } from './api/push';
import { scheduledApi } from './api/scheduled';
import { searchApi } from './api/search';
import { secretApi } from './api/secret';
import { threadsApi } from './api/threads';
import { usersApi } from './api/users';
import type { RouteSchemas } from './api/with-schemas';
import type { RouteName, Routes } from './routes';

export * from './api/admin';
export * from './api/auth';
export * from './api/calls';
export * from './api/contacts';
export * from './api/conversations';
export * from './api/directory';
export * from './api/export';
export * from './api/folders';
export * from './api/guests';
export * from './api/health';
export * from './api/imports';
export * from './api/livekit';
export * from './api/messages';
export * from './api/polls';
export * from './api/previews';
export * from './api/push';
export * from './api/scheduled';
export * from './api/search';
export * from './api/secret';
export * from './api/threads';
export * from './api/uploads';
export * from './api/users';
export type { RouteDef } from './api/with-schemas';

/** The route table with its schemas: every entry of ./routes, by the same name. Paths are relative to /api. */
export const api = {
  ...healthApi,
  ...authApi,
  ...exportApi,
  ...usersApi,
  ...contactsApi,
  ...conversationsApi,
  ...directoryApi,
  ...messagesApi,
  ...previewsApi,
  ...livekitApi,
  ...guestsApi,
  ...callsApi,
  ...threadsApi,
  ...pollsApi,
  ...scheduledApi,
  ...searchApi,
  ...pushApi,
  ...adminApi,
  ...secretApi,
  ...importsApi,
  ...foldersApi,
} as const satisfies { [K in RouteName]: Routes[K] & RouteSchemas };

export type Api = typeof api;
export type { RouteName };

type Infer<T> = T extends z.ZodType ? z.input<T> : undefined;
export type BodyOf<K extends RouteName> = Api[K] extends { body: infer B } ? Infer<B> : undefined;
export type QueryOf<K extends RouteName> = Api[K] extends { query: infer Q } ? Infer<Q> : undefined;
export type ResponseOf<K extends RouteName> = z.output<Api[K]['response']>;
