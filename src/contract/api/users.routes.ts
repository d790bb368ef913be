// One's own user (server/users/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./users.ts.
import type { RouteTable } from './route-info';

export const usersRoutes = {
  me: { method: 'GET', path: '/status/me', auth: true },
  patchMe: { method: 'PATCH', path: '/status/me', auth: true },
  setCustomStatus: { method: 'POST', path: '/status/custom', auth: true },
  clearCustomStatus: { method: 'DELETE', path: '/status/custom', auth: true },
  blockUser: { method: 'POST', path: '/users/block', auth: true },
  unblockUser: { method: 'POST', path: '/users/unblock', auth: true },
  blockedUsers: { method: 'GET', path: '/users/blocked', auth: true },
} as const satisfies RouteTable;
