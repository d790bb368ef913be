// The microphone/camera check a call makes before it rings anyone (src/machines/shared/secure-context.protocol.ts):
// fetched with the first call, not with the chat list (the first bundle's budget, bench/client/bundle.ts).
import type { MediaProblem } from '../../machines/shared/secure-context.protocol';
import type { ApiClient } from '../app/api';
import { insecurePage } from '../app/secure-context';

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
