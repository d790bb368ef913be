// The calls page's history (server/calls/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./calls.ts.
import type { RouteTable } from './route-info';

export const callsRoutes = {
  callHistory: { method: 'GET', path: '/calls', auth: true },
  /** The group's call that is on, if any (the call bar after a reload). */
  groupCall: { method: 'GET', path: '/conversations/:id/call', auth: true },
} as const satisfies RouteTable;
