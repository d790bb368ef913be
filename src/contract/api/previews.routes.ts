// Link previews (server/previews/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./previews.ts.
import type { RouteTable } from './route-info';

export const previewsRoutes = {
  removePreview: { method: 'POST', path: '/messages/preview/remove', auth: true },
} as const satisfies RouteTable;
