// Web Push (server/push/, the client's notifications): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./push.ts.
import type { RouteTable } from './route-info';

export const pushRoutes = {
  pushKey: { method: 'GET', path: '/push/key', auth: true },
  pushSubscribe: { method: 'POST', path: '/push/subscribe', auth: true },
  pushUnsubscribe: { method: 'POST', path: '/push/unsubscribe', auth: true },
} as const satisfies RouteTable;
