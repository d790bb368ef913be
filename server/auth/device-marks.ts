// Device marks (OWASP's «device cookie»): after a successful sign-in the server hands the browser a mark for that
// account, a random nonce with an HMAC over (account, nonce). The mark names no account (the browser keeps a few
// of them and sends them all; the server picks the one signed for the account being signed into), and it is no
// credential: it only lets its browser past the limits an attacker could aim at everybody (the per-address and
// the server-wide counters, login-throttle.ts); its own counter locks it after a few failures.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How many marks a sign-in request may carry (one per account signed into from that browser, the newest first). */
export const DEVICE_MARKS_MAX = 10;

export function createDeviceMarks(secret: Uint8Array) {
  // A key of its own, derived from the token secret: a mark is never mistaken for anything else signed with it.
  const key = createHmac('sha256', secret).update('device-mark/v1').digest();
  const sign = (userId: string, nonce: string) =>
    createHmac('sha256', key).update(`${userId}\n${nonce}`).digest('base64url');

  return {
    /** A fresh mark for `userId`. */
    issue(userId: string): string {
      const nonce = randomBytes(16).toString('base64url');
      return `${nonce}.${sign(userId, nonce)}`;
    },
    /** The nonce of the first mark signed for `userId` (its counter's key), or null. */
    nonceFor(userId: string, marks: readonly string[]): string | null {
      for (const mark of marks.slice(0, DEVICE_MARKS_MAX)) {
        const [nonce, mac, extra] = mark.split('.');
        if (!nonce || !mac || extra !== undefined) continue;
        const want = Buffer.from(sign(userId, nonce));
        const got = Buffer.from(mac);
        if (want.length === got.length && timingSafeEqual(want, got)) return nonce;
      }
      return null;
    },
  };
}

export type DeviceMarks = ReturnType<typeof createDeviceMarks>;
