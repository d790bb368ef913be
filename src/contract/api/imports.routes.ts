// History import (server/imports/, the client's historyImport): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./imports.ts.
import type { RouteTable } from './route-info';

export const importsRoutes = {
  imports: { method: 'GET', path: '/imports', auth: true },
  importJob: { method: 'GET', path: '/imports/:id', auth: true },
  importChoose: { method: 'POST', path: '/imports/:id/chat', auth: true },
  importStart: { method: 'POST', path: '/imports/:id/start', auth: true },
  importCancel: { method: 'POST', path: '/imports/:id/cancel', auth: true },
  importSecretBatch: { method: 'POST', path: '/imports/secret-batch', auth: true },
} as const satisfies RouteTable;

/**
 * History import: POST /api/imports?conversationId= takes the export itself (application/zip, streamed to disk) and
 * answers `ImportJobResponse` (src/contract/imports.ts); without conversationId the import makes a new group.
 */
export const importUploadEndpoint = { method: 'POST', path: '/imports', query: 'conversationId' } as const;
