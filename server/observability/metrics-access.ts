// Who may read /metrics: callers on this machine (the socket's own address: X-Forwarded-For is the client's to
// write, and trustProxy is on), or anyone presenting METRICS_TOKEN as a bearer token.
import { timingSafeEqual } from 'node:crypto';

export type MetricsAccess = 'allowed' | 'no-token' | 'wrong-token';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const isLoopback = (address: string | undefined): boolean => Boolean(address && LOOPBACK.has(address));

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `remoteAddress` is the TCP peer's; `authorization` the request's header; `token` METRICS_TOKEN (null: unset). */
export function metricsAccess(
  remoteAddress: string | undefined,
  authorization: string | undefined,
  token: string | null,
): MetricsAccess {
  const bearer = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
  if (token && bearer) return sameToken(bearer, token) ? 'allowed' : 'wrong-token';
  return isLoopback(remoteAddress) ? 'allowed' : 'no-token';
}
