// The secure-context capability (src/machines/shared/secure-context.protocol.ts): whether this page may use the
// microphone, camera, service worker and Web Push at all, the https address to go to when it may not (GET
// /api/instance, asked only then), and the microphone/camera check a call makes before it rings anyone.
import type { InsecurePage, MediaProblem } from '../../machines/shared/secure-context.protocol';
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

/** A getUserMedia failure by its DOMException name (never its English message). */
export function mediaProblem(err: unknown): MediaProblem {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return { kind: 'denied' };
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return { kind: 'missing' };
  if (name === 'NotReadableError' || name === 'AbortError') return { kind: 'busy' };
  return { kind: 'failed' };
}

/**
 * Null when the microphone (and the camera, for a video call) can be had: asks for them once and lets them go at
 * once (the conference asks again; the browser remembers the answer). Else why not, before anything is sent.
 */
export async function checkMedia(api: Pick<ApiClient, 'call'>, want: { video: boolean }): Promise<MediaProblem | null> {
  const insecure = await insecurePage(api);
  if (insecure) return { kind: 'insecure', ...insecure };
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) return { kind: 'unsupported' };
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: want.video });
    for (const t of stream.getTracks()) t.stop();
    return null;
  } catch (err) {
    return mediaProblem(err);
  }
}
