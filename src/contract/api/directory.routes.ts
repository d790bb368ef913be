// The server's directory of people and open groups (server/directory/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./directory.ts.
import type { RouteTable } from './route-info';

export const directoryRoutes = {
  directoryUsers: { method: 'GET', path: '/directory/users', auth: true },
  directoryGroups: { method: 'GET', path: '/directory/groups', auth: true },
} as const satisfies RouteTable;
