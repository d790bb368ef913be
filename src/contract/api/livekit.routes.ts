// Call tokens and the media server's address (server/livekit/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./livekit.ts.
import type { RouteTable } from './route-info';

export const livekitRoutes = {
  livekitToken: { method: 'POST', path: '/livekit/token', auth: true },
  livekitUrl: { method: 'GET', path: '/livekit/url', auth: true },
} as const satisfies RouteTable;
