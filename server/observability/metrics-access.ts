// Who may read /metrics: callers on this machine (the client's address, server/net/client-address.ts: the socket's
// own, or behind a proxy named in TRUST_PROXY the address it forwards for, so a browser reaching the server through
// a reverse proxy on the same machine is not taken for a local caller), or anyone presenting METRICS_TOKEN.
import { timingSafeEqual } from 'node:crypto';

export type MetricsAccess = 'allowed' | 'no-token' | 'wrong-token';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const isLoopback = (address: string | undefined): boolean => Boolean(address && LOOPBACK.has(address));

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `remoteAddress` is the client's (request.ip); `authorization` the request's header; `token` METRICS_TOKEN (null: unset). */
export function metricsAccess(
  remoteAddress: string | undefined,
  authorization: string | undefined,
  token: string | null,
): MetricsAccess {
  const bearer = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
  if (token && bearer) return sameToken(bearer, token) ? 'allowed' : 'wrong-token';
  return isLoopback(remoteAddress) ? 'allowed' : 'no-token';
}
