// Security headers on every response (helmet, built once: @fastify/helmet rebuilt it on every request, which
// cost ~150 µs a request here; and run once per host the browser used, its headers then replayed: running
// its middleware on every request was a tenth of a send's CPU at 1000 sends/s): nosniff, no framing, no
// referrer, and a Content-Security-Policy for the built client. The policy allows what the app does and nothing else: its own scripts and styles
// (React sets style attributes, hence 'unsafe-inline' for styles only), images from itself, blob: and data:
// (previews, avatar crops), media from itself and blob: (calls), workers from blob: (livekit-client), WebAssembly
// compiled from its own files (the calls' noise suppression, 'wasm-unsafe-eval'), and
// connections to itself and to the media server (LiveKit signalling over ws(s), its /validate over http(s)).
// Development runs the page through Vite (with the Stately inspector), not through this server, so this
// policy only ever covers production builds. Uploads set their own, stricter policy (uploads.routes.ts).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { THEME_INIT_SCRIPT } from '../../src/contract/theme';
import type { Config } from '../config';
import { livekitUrl } from '../livekit/token.routes';
import { addressedAs, connectionOf, type ProxyTrust, proxyTrust } from '../net/client-address';

/** A host[:port] CSP can name (letters, digits, dots, dashes); anything else (IPv6 literals) cannot be. */
const NAMEABLE = /^[a-z0-9.-]+(:\d{1,5})?$/i;

/**
 * CSP sources for the app's own websocket and the media server (signalling ws(s) and its http(s) /validate), for
 * the host and scheme the browser used (X-Forwarded-Host/-Proto only from a trusted proxy).
 */
export function connectSources(config: Config, req: IncomingMessage, trust: ProxyTrust): string {
  const at = addressedAs(connectionOf(req), trust);
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

type HeaderList = readonly (readonly [name: string, value: string])[];

/** The REST API (every answer `Cache-Control: no-store`). */
const API_PREFIX = '/api/';

/** The build's content-hashed scripts, styles and images (client-cache.ts). */
const BUILD_ASSETS = '/assets/';
/**
 * What the build's assets carry: the policy, framing, referrer and the like govern documents (and worker scripts,
 * which the app does not load from /assets/), not a script or a style sheet read by one; repeated on each of the
 * first load's fifteen assets they were a kilobyte each on the wire. nosniff is what a script needs.
 */
const ASSET_HEADERS: HeaderList = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
];

/** The headers a Node-style middleware sets, run against a response that only records them. */
function headersSetBy(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void,
  req: IncomingMessage,
): HeaderList {
  const set = new Map<string, readonly [string, string]>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name.toLowerCase(), [name, Array.isArray(value) ? value.join(', ') : String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      set.delete(name.toLowerCase());
    },
    getHeader: (name: string) => set.get(name.toLowerCase())?.[1],
  };
  let finished = false;
  let failed: unknown = null;
  middleware(req, recorder as unknown as ServerResponse, (err) => {
    finished = true;
    failed = err ?? null;
  });
  // helmet calls next synchronously; anything else would leave headers unrecorded.
  if (!finished) throw new Error('security headers middleware did not finish synchronously');
  if (failed) throw failed;
  return [...set.values()];
}

const THEME_SCRIPT_HASH = `'sha256-${createHash('sha256').update(THEME_INIT_SCRIPT).digest('base64')}'`;

/** Not encapsulated: its hook covers every response, 404s and the other plugins' routes included. */
export const securityHeaders = fp(
  async (app) => {
    const { config } = app;
    const trust = proxyTrust(config.trustProxy);
    const apply = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          // The theme's pre-paint script, inline in index.html (src/contract/theme.ts): allowed by its hash alone.
          // 'wasm-unsafe-eval': the call's noise suppression compiles its own WebAssembly (RNNoise, served from here);
          // it allows compiling WebAssembly only, not eval of strings.
          scriptSrc: ["'self'", THEME_SCRIPT_HASH, "'wasm-unsafe-eval'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'blob:', 'data:'],
          mediaSrc: ["'self'", 'blob:'],
          fontSrc: ["'self'", 'data:'],
          workerSrc: ["'self'", 'blob:'],
          manifestSrc: ["'self'"],
          connectSrc: ["'self'", (req) => connectSources(config, req as IncomingMessage, trust)],
        },
      },
      // Serving its own certificate, the app says so for a year (a browser then never tries http:// first);
      // behind a TLS proxy HSTS is the proxy's, and on a LAN's plain http it would mean nothing.
      strictTransportSecurity:
        config.tls.mode === 'off' ? false : { maxAge: 365 * 24 * 3600, includeSubDomains: false },
      xFrameOptions: { action: 'deny' },
    });
    // Only connect-src varies, and only with the host and scheme the browser used: helmet's headers are
    // computed once per such address and replayed (a few addresses per deployment; the map is bounded).
    const byAddress = new Map<string, HeaderList>();
    const headersFor = (req: IncomingMessage): HeaderList => {
      const at = addressedAs(connectionOf(req), trust);
      const key = `${at.host}|${at.protocol}`;
      let headers = byAddress.get(key);
      if (!headers) {
        headers = headersSetBy(apply, req);
        if (byAddress.size >= 100) byAddress.clear();
        byAddress.set(key, headers);
      }
      return headers;
    };
    app.addHook('onRequest', (req, reply, done) => {
      let headers: HeaderList;
      try {
        headers = req.raw.url?.startsWith(BUILD_ASSETS) ? ASSET_HEADERS : headersFor(req.raw);
      } catch (err) {
        done(err as Error);
        return;
      }
      const res = reply.raw;
      for (const [name, value] of headers) res.setHeader(name, value);
      // API answers are one user's data: a browser must not keep them for the next person at the computer (its
      // HTTP cache answers force-cache and only-if-cached fetches with whoever's answer it kept). Errors too.
      if (req.raw.url?.startsWith(API_PREFIX)) res.setHeader('Cache-Control', 'no-store');
      done();
    });
  },
  { name: 'security-headers', decorators: { fastify: ['config'] }, dependencies: ['base'] },
);
