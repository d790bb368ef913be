// The secure-context capability (src/machines/shared/secure-context.protocol.ts): whether this page may use the
// microphone, camera, service worker and Web Push at all, the https address to go to when it may not (GET
// /api/instance, asked only then). The microphone/camera check a call makes before it rings anyone is the calls
// feature's (src/services/calls/media-check.ts), loaded with the first call.
import type { InsecurePage } from '../../machines/shared/secure-context.protocol';
import type { ApiClient } from './api';

/** False on a page opened over plain http from anything but localhost. */
export function secureContext(): boolean {
  return typeof window === 'undefined' || window.isSecureContext !== false;
}

/** Null on a secure page; else the server's https address, when it knows one. */
export async function insecurePage(api: Pick<ApiClient, 'call'>): Promise<InsecurePage | null> {
  if (secureContext()) return null;
  try {
    return { secureUrl: (await api.call('instance')).secureUrl };
  } catch {
    return { secureUrl: null };
  }
}
