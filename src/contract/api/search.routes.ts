// Message search (server/search/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./search.ts.
import type { RouteTable } from './route-info';

export const searchRoutes = {
  search: { method: 'GET', path: '/search', auth: true },
} as const satisfies RouteTable;
