// Threads (server/threads/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./threads.ts.
import type { RouteTable } from './route-info';

export const threadsRoutes = {
  thread: { method: 'GET', path: '/threads/:id', auth: true },
  followThread: { method: 'POST', path: '/threads/follow', auth: true },
  readThread: { method: 'POST', path: '/threads/read', auth: true },
  followedThreads: { method: 'GET', path: '/threads', auth: true },
  threadsSetting: { method: 'POST', path: '/conversations/threads', auth: true },
} as const satisfies RouteTable;
