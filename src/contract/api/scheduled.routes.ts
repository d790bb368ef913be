// «Отправить позже» and «Напомнить» (server/scheduled/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./scheduled.ts.
import type { RouteTable } from './route-info';

export const scheduledRoutes = {
  scheduled: { method: 'GET', path: '/conversations/:id/scheduled', auth: true },
  schedule: { method: 'POST', path: '/scheduled', auth: true },
  editScheduled: { method: 'PATCH', path: '/scheduled/:id', auth: true },
  sendScheduledNow: { method: 'POST', path: '/scheduled/:id/send', auth: true },
  deleteScheduled: { method: 'DELETE', path: '/scheduled/:id', auth: true },
  remind: { method: 'POST', path: '/reminders', auth: true },
} as const satisfies RouteTable;
