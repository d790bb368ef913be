// Which push endpoints the server will send to. Browsers hand the server these addresses, so they are checked as
// untrusted URLs: https only, no credentials in them, and no address of the server's own network written as an IP
// literal or a local name (a request there could reach internal services). Loopback is allowed only when the
// configuration says so (tests run a push service stand-in on 127.0.0.1).
import { BlockList, isIP } from 'node:net';

const internal = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  internal.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  internal.addSubnet(net, bits, 'ipv6');
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/** An internal address or name: private, loopback, link-local, multicast, or a local-only host name. */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const v = isIP(host);
  if (v === 4) return internal.check(host, 'ipv4');
  if (v === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    return mapped ? internal.check(mapped[1], 'ipv4') : internal.check(host, 'ipv6');
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    !host.includes('.')
  );
}

export const ENDPOINT_REFUSED = {
  invalid: 'Неверный адрес подписки на уведомления',
  notHttps: 'Адрес подписки на уведомления должен начинаться с https://',
  internal: 'Адрес подписки на уведомления указывает во внутреннюю сеть',
} as const;

/** null when the server may send to `raw`, else the reason (Russian, for a 400). */
export function endpointRefusal(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ENDPOINT_REFUSED.invalid;
  }
  if (url.username || url.password || url.hash) return ENDPOINT_REFUSED.invalid;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowLoopback && LOOPBACK_NAMES.has(host) && (url.protocol === 'http:' || url.protocol === 'https:')) return null;
  if (url.protocol !== 'https:') return ENDPOINT_REFUSED.notHttps;
  if (isInternalHost(host)) return ENDPOINT_REFUSED.internal;
  return null;
}
