// Guest links to calls (server/guests/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./guests.ts.
import type { RouteTable } from './route-info';

export const guestsRoutes = {
  createGuestLink: { method: 'POST', path: '/guest-links', auth: true },
  guestLinks: { method: 'GET', path: '/guest-links', auth: true },
  revokeGuestLink: { method: 'POST', path: '/guest-links/revoke', auth: true },
  guestAdmission: { method: 'POST', path: '/guest-links/admission', auth: true },
  waitingGuests: { method: 'GET', path: '/guest-links/waiting', auth: true },
  guestLinkInfo: { method: 'GET', path: '/guest/:code', auth: false },
  guestKnock: { method: 'POST', path: '/guest/:code/knock', auth: false },
  guestToken: { method: 'POST', path: '/guest/knocks/:id/token', auth: false },
  guestLeave: { method: 'POST', path: '/guest/knocks/:id/leave', auth: false },
} as const satisfies RouteTable;
