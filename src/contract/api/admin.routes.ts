// The administration (server/admin/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./admin.ts.
import type { RouteTable } from './route-info';

export const adminRoutes = {
  registrationInfo: { method: 'GET', path: '/registration', auth: false },
  instance: { method: 'GET', path: '/instance', auth: false },
  passwordResetInfo: { method: 'GET', path: '/auth/reset/:token', auth: false },
  resetPassword: { method: 'POST', path: '/auth/reset', auth: false },
  report: { method: 'POST', path: '/reports', auth: true },
  reportNotices: { method: 'GET', path: '/reports/notices', auth: true },
  reportNoticesSeen: { method: 'POST', path: '/reports/notices/seen', auth: true },
  registrationInvites: { method: 'GET', path: '/registration/invites', auth: true },
  createRegistrationInvite: { method: 'POST', path: '/registration/invites', auth: true },
  revokeRegistrationInvite: { method: 'POST', path: '/registration/invites/revoke', auth: true },
  adminUsers: { method: 'GET', path: '/admin/users', auth: true },
  adminDeactivate: { method: 'POST', path: '/admin/users/deactivate', auth: true },
  adminReactivate: { method: 'POST', path: '/admin/users/reactivate', auth: true },
  adminEndSessions: { method: 'POST', path: '/admin/users/end-sessions', auth: true },
  adminResetSecondFactor: { method: 'POST', path: '/admin/users/reset-second-factor', auth: true },
  adminResetLink: { method: 'POST', path: '/admin/users/reset-link', auth: true },
  adminRole: { method: 'POST', path: '/admin/users/role', auth: true },
  adminStats: { method: 'GET', path: '/admin/stats', auth: true },
  adminSettings: { method: 'GET', path: '/admin/settings', auth: true },
  patchAdminSettings: { method: 'PATCH', path: '/admin/settings', auth: true },
  adminReports: { method: 'GET', path: '/admin/reports', auth: true },
  resolveReport: { method: 'POST', path: '/admin/reports/resolve', auth: true },
} as const satisfies RouteTable;
