// Signing in (server/auth/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./auth.ts.
import type { RouteTable } from './route-info';

export const authRoutes = {
  register: { method: 'POST', path: '/auth/register', auth: false },
  login: { method: 'POST', path: '/auth/login', auth: false },
  refresh: { method: 'POST', path: '/auth/refresh', auth: false },
  loginSecondFactor: { method: 'POST', path: '/auth/login/second-factor', auth: false },
  twoFactor: { method: 'GET', path: '/auth/two-factor', auth: true },
  twoFactorBegin: { method: 'POST', path: '/auth/two-factor/begin', auth: true },
  twoFactorConfirm: { method: 'POST', path: '/auth/two-factor/confirm', auth: true },
  twoFactorDisable: { method: 'POST', path: '/auth/two-factor/disable', auth: true },
  recoveryCodes: { method: 'POST', path: '/auth/two-factor/recovery-codes', auth: true },
  passkeys: { method: 'GET', path: '/auth/passkeys', auth: true },
  passkeyRegisterOptions: { method: 'POST', path: '/auth/passkeys/register/options', auth: true },
  passkeyRegister: { method: 'POST', path: '/auth/passkeys/register', auth: true },
  passkeyRename: { method: 'PATCH', path: '/auth/passkeys/:id', auth: true },
  passkeyRemove: { method: 'POST', path: '/auth/passkeys/:id/remove', auth: true },
  passkeySignInOptions: { method: 'POST', path: '/auth/passkeys/sign-in/options', auth: false },
  passkeySignIn: { method: 'POST', path: '/auth/passkeys/sign-in', auth: false },
  logout: { method: 'POST', path: '/auth/logout', auth: false },
  sessions: { method: 'GET', path: '/auth/sessions', auth: true },
  endSession: { method: 'DELETE', path: '/auth/sessions/:id', auth: true },
  endOtherSessions: { method: 'POST', path: '/auth/sessions/end-others', auth: true },
  changePassword: { method: 'POST', path: '/auth/password', auth: true },
  deleteAccount: { method: 'POST', path: '/auth/account/delete', auth: true },
  oidcComplete: { method: 'POST', path: '/auth/oidc/complete', auth: false },
  oidcCreate: { method: 'POST', path: '/auth/oidc/create', auth: false },
  oidcLink: { method: 'POST', path: '/auth/oidc/link', auth: false },
  signInMethods: { method: 'GET', path: '/auth/methods', auth: true },
} as const satisfies RouteTable;
