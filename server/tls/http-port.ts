// Plain HTTP beside HTTPS (HTTP_PORT, 80 by default): the CA's HTTP-01 challenges, and everything else sent to the
// same path over https, as Caddy does. Nothing of the app is ever served here.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Challenges } from './acme';

const CHALLENGE_PREFIX = '/.well-known/acme-challenge/';

export interface HttpPortOptions {
  port: number;
  host: string;
  challenges: Challenges;
  /** Where redirects go: PUBLIC_URL's origin, or null to keep the host the browser asked for. */
  publicOrigin: string | null;
  /** The HTTPS port, named in redirects when it is not 443. */
  httpsPort: number;
}

export interface HttpPort {
  port: number;
  close(): Promise<void>;
}

export function redirectTarget(o: Pick<HttpPortOptions, 'publicOrigin' | 'httpsPort'>, req: http.IncomingMessage) {
  const path = req.url?.startsWith('/') ? req.url : '/';
  if (o.publicOrigin) return new URL(path, o.publicOrigin).href;
  const hostHeader = req.headers.host ?? '';
  // The host without its port (an IPv6 literal keeps its brackets); anything odd is refused, not echoed.
  const hostname = hostHeader.startsWith('[')
    ? hostHeader.slice(0, hostHeader.indexOf(']') + 1)
    : hostHeader.split(':')[0];
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(hostname)) return null;
  return `https://${hostname}${o.httpsPort === 443 ? '' : `:${o.httpsPort}`}${path}`;
}

/** Listens on the port; rejects with the listen error (EADDRINUSE, EACCES) for the caller to explain. */
export async function startHttpPort(o: HttpPortOptions): Promise<HttpPort> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (req.method === 'GET' && url.startsWith(CHALLENGE_PREFIX)) {
      const answer = o.challenges.get(url.slice(CHALLENGE_PREFIX.length));
      if (answer) res.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const target = redirectTarget(o, req);
    if (!target) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Откройте адрес по https://');
      return;
    }
    // 308 keeps the method and body of a POST; browsers treat it as 301 for a GET.
    res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 301 : 308, { location: target }).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
