// The calls page's history (server/calls/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./calls.ts.
import type { RouteTable } from './route-info';

export const callsRoutes = {
  callHistory: { method: 'GET', path: '/calls', auth: true },
  /** The group's call that is on, if any (the call bar after a reload). */
  groupCall: { method: 'GET', path: '/conversations/:id/call', auth: true },
  /** «Выключить микрофон» of someone in the group's call (its owner and admins). */
  groupCallMute: { method: 'POST', path: '/conversations/:id/call/mute', auth: true },
  /** «Удалить из звонка»: someone in the group's call is taken out of it (its owner and admins). */
  groupCallRemove: { method: 'POST', path: '/conversations/:id/call/remove', auth: true },
} as const satisfies RouteTable;
