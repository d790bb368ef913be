// «Экспорт данных» (server/export/, the account page's): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./export.ts.
import type { RouteTable } from './route-info';

export const exportRoutes = {
  startExport: { method: 'POST', path: '/export', auth: true },
  latestExport: { method: 'GET', path: '/export', auth: true },
  exportStatus: { method: 'GET', path: '/export/:id', auth: true },
} as const satisfies RouteTable;

/**
 * GET /api/export/:id/download answers the ZIP itself, so it is not in the JSON route table. It takes the bearer
 * token, or the short-lived signed `token` query that the export's status hands out as `downloadUrl` (a plain link
 * cannot send a header). Only the export's owner gets it: anyone else's answer is 404.
 */
export const exportDownloadEndpoint = { method: 'GET', path: '/export/:id/download', query: 'token' } as const;
