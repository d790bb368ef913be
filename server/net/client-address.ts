// Who is on the other end of a connection, read one way for HTTP, the websocket handshake and the metrics check.
//
// X-Forwarded-For/-Host/-Proto are whatever the sender writes. They are believed only when the connection comes from
// a proxy the operator named in TRUST_PROXY (config.ts); otherwise the client is the connection's own address and
// the host and scheme are the request's own (Host, TLS or not). With a chain of proxies, X-Forwarded-For is read from
// the right and the first address that is not a trusted proxy is the client (proxy-addr, as Fastify reads it).
import type { IncomingHttpHeaders } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Whether the hop at `address` (0: the connection's own peer) is a trusted proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** TRUST_PROXY unset: no forwarded header is believed. */
export const trustNobody: ProxyTrust = () => false;

/** The names proxy-addr knows besides addresses and subnets. */
export const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** TRUST_PROXY's entries (addresses, CIDRs, range names) → the trust check; throws on an entry it cannot read. */
export function proxyTrust(entries: readonly string[]): ProxyTrust {
  if (entries.length === 0) return trustNobody;
  return proxyAddr.compile([...entries]);
}

/** What a connection offers: its TCP peer, whether it is TLS, and the request's headers. */
export interface Connection {
  remoteAddress: string | undefined;
  encrypted?: boolean;
  headers: IncomingHttpHeaders;
}

/** The connection's peer, unless it is a trusted proxy: then the address it forwards for (hop by hop from the right). */
export function clientAddress(conn: Connection, trust: ProxyTrust): string {
  const peer = conn.remoteAddress ?? '';
  // proxy-addr reads req.socket.remoteAddress and req.headers['x-forwarded-for'] only.
  const req = { socket: { remoteAddress: peer }, headers: conn.headers } as unknown as Parameters<typeof proxyAddr>[0];
  return proxyAddr(req, trust) || peer;
}

const lastOf = (v: string | string[] | undefined): string | undefined => {
  const s = Array.isArray(v) ? v[v.length - 1] : v;
  if (s === undefined) return undefined;
  const parts = s.split(',');
  return parts[parts.length - 1]?.trim() || undefined;
};

/**
 * The host and scheme the browser used: X-Forwarded-Host/-Proto when the peer is a trusted proxy (its own entry, the
 * last one, as Fastify reads them), else Host and the connection's TLS.
 */
export function addressedAs(conn: Connection, trust: ProxyTrust): { host: string; hostname: string; protocol: string } {
  const proxied = conn.remoteAddress !== undefined && trust(conn.remoteAddress, 0);
  const forwardedHost = proxied ? lastOf(conn.headers['x-forwarded-host']) : undefined;
  const forwardedProto = proxied ? lastOf(conn.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const host = forwardedHost ?? lastOf(conn.headers.host) ?? '';
  const protocol =
    forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : conn.encrypted ? 'https' : 'http';
  const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
  return { host, hostname, protocol };
}

/** A Node request as a Connection. */
export const connectionOf = (req: {
  socket: { remoteAddress?: string | undefined };
  headers: IncomingHttpHeaders;
}): Connection => ({
  remoteAddress: req.socket.remoteAddress,
  encrypted: (req.socket as { encrypted?: boolean }).encrypted === true,
  headers: req.headers,
});
