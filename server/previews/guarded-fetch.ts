// The only way the server reads a page or a picture for a link preview (docs/behaviour.md §10.30 Link previews).
// Links come from users, so every request is one an attacker chose: the address is checked where the connection
// is made (the socket's own `lookup`, so a name that resolves to a public address for a check and to 127.0.0.1
// for the connection cannot slip through), IP literals before any socket, every redirect hop again, and the
// read is cut at a size and a deadline. Only http/https on the allowed ports; no credentials in the URL.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { HostResolver } from '../config';

export interface FetchPolicy {
  /** Host names exempt from the address check (LINK_PREVIEW_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  ports: readonly number[];
  /** Bytes read at most; the rest is never read. */
  maxBytes: number;
  maxRedirects: number;
  resolve: HostResolver | null;
}

/** Why nothing was fetched: the card is simply not shown, so these stay in the server's words. */
export class FetchRefused extends Error {
  constructor(
    readonly reason:
      | 'scheme'
      | 'port'
      | 'credentials'
      | 'address'
      | 'redirects'
      | 'status'
      | 'type'
      | 'timeout'
      | 'network',
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/**
 * Only ordinary public unicast: not private, loopback, link-local, CGNAT (100.64/10), multicast, broadcast,
 * unspecified, reserved, benchmarking, unique local (fc00::/7), link-local (fe80::/10), nor IPv6 forms that carry an
 * IPv4 address (6to4, NAT64, Teredo); IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it maps.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr.range() === 'unicast';
}

const systemResolve: HostResolver = async (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A socket `lookup` that resolves through `resolve` and refuses the connection unless every address is public. */
export function guardedLookup(resolve: HostResolver, checked: boolean): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const list = addresses.filter((a) => !wanted || a.family === wanted);
        if (list.length === 0) return callback(new FetchRefused('network', `${hostname} has no address`));
        // Any private address among the answers refuses the name: the socket may try each in turn.
        const bad = checked ? list.find((a) => !isPublicAddress(a.address)) : undefined;
        if (bad) return callback(new FetchRefused('address', `${hostname} → ${bad.address}`));
        if (options.all) return callback(null, list);
        return callback(null, list[0].address, list[0].family);
      },
      (err: Error) => callback(err),
    );
  }) as LookupFunction;
}

/** The URL's host as the socket will see it: brackets off an IPv6 literal, lower case. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** Refuses a URL before any socket: the scheme, credentials, the port, and an IP literal's address. */
function checkUrl(url: URL, policy: FetchPolicy): { allowed: boolean } {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused('scheme', url.protocol);
  if (url.username || url.password) throw new FetchRefused('credentials', url.host);
  const host = bareHost(url);
  const allowed = policy.allowHosts.includes(host);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!policy.ports.includes(port)) throw new FetchRefused('port', String(port));
  // The socket connects to a literal without any lookup: it is judged here.
  if (!allowed && isIP(host) && !isPublicAddress(host)) throw new FetchRefused('address', host);
  return { allowed };
}

export interface Fetched {
  /** Where the answer came from, after the redirects. */
  url: URL;
  contentType: string;
  body: Buffer;
  /** More was there than maxBytes: the rest was not read. */
  cut: boolean;
}

/** Reads a response's body up to `max` bytes, then drops the connection. */
function readCapped(
  res: http.IncomingMessage,
  max: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const abort = () => {
      res.destroy();
      reject(new FetchRefused('timeout', 'body'));
    };
    signal.addEventListener('abort', abort, { once: true });
    const finish = (cut: boolean) => {
      signal.removeEventListener('abort', abort);
      resolve({ body: Buffer.concat(chunks).subarray(0, max), cut });
    };
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > max) {
        res.destroy();
        finish(true);
      }
    });
    res.on('end', () => finish(false));
    res.on('error', (err) => {
      signal.removeEventListener('abort', abort);
      if (size > max) return;
      reject(signal.aborted ? new FetchRefused('timeout', 'body') : new FetchRefused('network', err.message));
    });
  });
}

/** One GET with no redirect following; the guard is in the socket's lookup. */
function getOnce(url: URL, allowed: boolean, policy: FetchPolicy, accept: string, signal: AbortSignal) {
  const resolve = policy.resolve ?? systemResolve;
  return new Promise<http.IncomingMessage>((done, fail) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.get(
      url,
      {
        // A fresh socket per request (no agent pool): a connection made for one host is never reused for another.
        agent: false,
        lookup: guardedLookup(resolve, !allowed),
        signal,
        headers: {
          accept,
          'accept-encoding': 'identity',
          'user-agent': 'Beseda-LinkPreview/1.0 (+link preview)',
        },
      },
      done,
    );
    req.on('error', (err) => {
      if (err instanceof FetchRefused) fail(err);
      else if (signal.aborted) fail(new FetchRefused('timeout', url.host));
      else fail(new FetchRefused('network', err.message));
    });
  });
}

/**
 * GET `raw`, following up to maxRedirects redirects, each hop checked as the first; `wants` decides from the
 * Content-Type whether the body is read at all. Rejects with FetchRefused.
 */
export async function guardedGet(
  raw: string | URL,
  policy: FetchPolicy,
  wants: (contentType: string) => boolean,
  accept: string,
  signal: AbortSignal,
): Promise<Fetched> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefused('scheme', 'not a URL');
  }
  for (let hop = 0; ; hop++) {
    if (signal.aborted) throw new FetchRefused('timeout', url.host);
    const { allowed } = checkUrl(url, policy);
    const res = await getOnce(url, allowed, policy, accept, signal);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.destroy();
      if (hop >= policy.maxRedirects) throw new FetchRefused('redirects', String(hop + 1));
      try {
        url = new URL(res.headers.location, url);
      } catch {
        throw new FetchRefused('status', 'bad Location');
      }
      continue;
    }
    if (status < 200 || status >= 300) {
      res.destroy();
      throw new FetchRefused('status', String(status));
    }
    const contentType = String(res.headers['content-type'] ?? '').toLowerCase();
    if (!wants(contentType)) {
      res.destroy();
      throw new FetchRefused('type', contentType || 'none');
    }
    const { body, cut } = await readCapped(res, policy.maxBytes, signal);
    return { url, contentType, body, cut };
  }
}
