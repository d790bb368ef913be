// Whether the signed-in user administers the server (role from /api/status/me, kept by the session and profile).
import { useOwnUser } from '../profile/index';

export function useAdminAccess() {
  return { isAdmin: useOwnUser()?.role === 'admin' };
}
