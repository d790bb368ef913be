// The REST routes without their schemas: name → method, path (relative to /api), whether a bearer token is needed,
// one table per feature in src/contract/api/<feature>.routes.ts (the feature named as its server folder), joined
// here. The client calls routes from this table and so never loads zod; src/contract/api.ts joins each feature's
// schemas to the same entries for the server (validation, reply shaping) and for the types both sides use.

import { adminRoutes } from './api/admin.routes';
import { authRoutes } from './api/auth.routes';
import { callsRoutes } from './api/calls.routes';
import { contactsRoutes } from './api/contacts.routes';
import { conversationsRoutes } from './api/conversations.routes';
import { directoryRoutes } from './api/directory.routes';
import { exportRoutes } from './api/export.routes';
import { foldersRoutes } from './api/folders.routes';
import { guestsRoutes } from './api/guests.routes';
import { healthRoutes } from './api/health.routes';
import { importsRoutes } from './api/imports.routes';
import { livekitRoutes } from './api/livekit.routes';
import { messagesRoutes } from './api/messages.routes';
import { pollsRoutes } from './api/polls.routes';
import { previewsRoutes } from './api/previews.routes';
import { pushRoutes } from './api/push.routes';
import type { RouteInfo } from './api/route-info';
import { scheduledRoutes } from './api/scheduled.routes';
import { searchRoutes } from './api/search.routes';
import { secretRoutes } from './api/secret.routes';
import { threadsRoutes } from './api/threads.routes';
import { usersRoutes } from './api/users.routes';

export { exportDownloadEndpoint } from './api/export.routes';
export { importUploadEndpoint } from './api/imports.routes';
export type { Method, RouteInfo } from './api/route-info';
export { SECRET_UPLOAD_URL, secretDownloadEndpoint, secretUploadEndpoint } from './api/secret.routes';
export { uploadEndpoint } from './api/uploads.routes';

/** Every route, by name; a name is declared by one feature only (src/contract/routes.test.ts). */
export const routes = {
  ...healthRoutes,
  ...authRoutes,
  ...exportRoutes,
  ...usersRoutes,
  ...contactsRoutes,
  ...conversationsRoutes,
  ...directoryRoutes,
  ...messagesRoutes,
  ...previewsRoutes,
  ...livekitRoutes,
  ...guestsRoutes,
  ...callsRoutes,
  ...threadsRoutes,
  ...pollsRoutes,
  ...scheduledRoutes,
  ...searchRoutes,
  ...pushRoutes,
  ...adminRoutes,
  ...secretRoutes,
  ...importsRoutes,
  ...foldersRoutes,
} as const satisfies Record<string, RouteInfo>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
