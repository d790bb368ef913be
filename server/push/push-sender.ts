// One request to a push service: the payload encrypted for the subscription (RFC 8291, aes128gcm) and signed with
// the server's VAPID key (RFC 8292) by web-push, then sent here rather than by web-push's own request so that it
// is time-limited, reads at most a few KB of the answer, and never follows a redirect (a push service answers
// 201; anything else is a failure, and 404/410 mean the subscription is gone).
import webpush from 'web-push';
import { PUSH } from '../../src/contract/notification';

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushOptions {
  ttlSec: number;
  urgency: 'normal' | 'high';
  /** Replaces an undelivered push with the same topic at the push service (base64url, ≤ 32 characters). */
  topic?: string;
}

export type PushOutcome = 'sent' | 'gone' | 'failed';

export interface Vapid {
  subject: string;
  publicKey: string;
  privateKey: string;
}

export async function sendPush(
  target: PushTarget,
  payload: string,
  options: PushOptions,
  vapid: Vapid,
): Promise<{ outcome: PushOutcome; status: number | null }> {
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails(target, payload, {
      vapidDetails: vapid,
      TTL: options.ttlSec,
      urgency: options.urgency,
      topic: options.topic,
      contentEncoding: 'aes128gcm',
    });
  } catch {
    return { outcome: 'gone', status: null }; // keys the encryption refuses: the subscription cannot be used
  }
  try {
    const res = await fetch(details.endpoint, {
      method: 'POST',
      headers: details.headers as Record<string, string>,
      body: details.body ? new Uint8Array(details.body) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(PUSH.requestTimeoutMs),
    });
    await drain(res, PUSH.responseBytesMax);
    if (res.status === 404 || res.status === 410) return { outcome: 'gone', status: res.status };
    return { outcome: res.status >= 200 && res.status < 300 ? 'sent' : 'failed', status: res.status };
  } catch {
    return { outcome: 'failed', status: null };
  }
}

/** Reads at most `max` bytes of the answer (nothing uses it; the connection is freed), then stops. */
async function drain(res: Response, max: number): Promise<void> {
  const reader = res.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    while (read <= max) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
