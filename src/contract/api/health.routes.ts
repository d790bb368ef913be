// Liveness and readiness (server/app.ts, server/observability/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./health.ts.
import type { RouteTable } from './route-info';

export const healthRoutes = {
  health: { method: 'GET', path: '/health', auth: false },
  healthReady: { method: 'GET', path: '/health/ready', auth: false },
} as const satisfies RouteTable;
