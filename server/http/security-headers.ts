// Security headers on every response (helmet, built once: @fastify/helmet rebuilt it on every request, which
// cost ~150 µs a request here): nosniff, no framing, no referrer, and a Content-Security-Policy
// for the built client. The policy allows what the app does and nothing else: its own scripts and styles
// (React sets style attributes, hence 'unsafe-inline' for styles only), images from itself, blob: and data:
// (previews, avatar crops), media from itself and blob: (calls), workers from blob: (livekit-client), and
// connections to itself and to the media server (LiveKit signalling over ws(s), its /validate over http(s)).
// Development runs the page through Vite (with the Stately inspector), not through this server, so this
// policy only ever covers production builds. Uploads set their own, stricter policy (uploads.routes.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config';
import { livekitUrl } from '../livekit/token.routes';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();

/** The host and scheme the browser used, as Fastify reads them with trustProxy (X-Forwarded-* first). */
function addressedAs(req: IncomingMessage): { host: string; hostname: string; protocol: string } {
  const host = first(req.headers['x-forwarded-host']) ?? first(req.headers.host) ?? '';
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const protocol = first(req.headers['x-forwarded-proto']) ?? (encrypted ? 'https' : 'http');
  const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return { host, hostname, protocol };
}

/** A host[:port] CSP can name (letters, digits, dots, dashes); anything else (IPv6 literals) cannot be. */
const NAMEABLE = /^[a-z0-9.-]+(:\d{1,5})?$/i;

/** CSP sources for the app's own websocket and the media server (signalling ws(s) and its http(s) /validate). */
export function connectSources(config: Config, req: IncomingMessage): string {
  const at = addressedAs(req);
  const own = at.protocol === 'https' ? 'wss' : 'ws';
  let media: URL | null = null;
  try {
    media = new URL(livekitUrl(config, at));
  } catch {
    media = null;
  }
  if (!media || !NAMEABLE.test(media.host) || !NAMEABLE.test(at.host)) return 'ws: wss:';
  const mediaHttp = media.protocol === 'wss:' ? 'https' : 'http';
  const mediaWs = media.protocol === 'wss:' ? 'wss' : 'ws';
  return [`${own}://${at.host}`, `${mediaWs}://${media.host}`, `${mediaHttp}://${media.host}`].join(' ');
}

export function securityHeaders(app: FastifyInstance, config: Config): void {
  // The media-server sources depend only on the host and scheme the browser used: remember a few.
  const sources = new Map<string, string>();
  const connectFor = (req: IncomingMessage) => {
    const key = `${req.headers.host}|${req.headers['x-forwarded-host']}|${req.headers['x-forwarded-proto']}`;
    let value = sources.get(key);
    if (value === undefined) {
      value = connectSources(config, req);
      if (sources.size >= 100) sources.clear();
      sources.set(key, value);
    }
    return value;
  };
  const apply = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'blob:', 'data:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        connectSrc: ["'self'", (req) => connectFor(req as IncomingMessage)],
      },
    },
    // HSTS belongs to the TLS proxy in front (the app itself speaks plain http, also on LANs).
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onRequest', (req, reply, done) => {
    apply(req.raw, reply.raw as ServerResponse, (err?: unknown) => done(err as Error | undefined));
  });
}
