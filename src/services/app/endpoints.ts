// Where the client talks to (docs/behaviour.md §7). Pure functions of the page location and build-time settings,
// so the address rules are testable without a browser.

export interface PageLocation {
  protocol: string;
  hostname: string;
  port: string;
  host: string;
  origin: string;
}

export interface EndpointSettings {
  /** VITE_API_URL: a configured API URL overrides every other rule. */
  apiUrl?: string;
  /** VITE_SOCKET_URL: a configured socket address overrides every other rule. */
  socketUrl?: string;
  /**
   * True in production builds, which the API server itself serves (one origin). The "port 4000 on
   * other localhost ports" rule is a development rule; applied to `PORT=8080 npm start` opened at
   * localhost:8080 it would send the socket to a port nothing listens on.
   */
  servedByApi?: boolean;
}

const isLocalhost = (loc: PageLocation) => loc.hostname === 'localhost';
const DEV_FRONTEND_PORT = '5173';
const DEV_SERVER_PORT = 4000;

/** Base path /api; a configured API URL overrides it; on localhost with a port other than 5173 it is {host}/api. */
export function apiBaseUrl(loc: PageLocation, settings: EndpointSettings = {}): string {
  if (settings.apiUrl) return settings.apiUrl.replace(/\/+$/, '');
  if (isLocalhost(loc) && loc.port !== DEV_FRONTEND_PORT) return `${loc.protocol}//${loc.host}/api`;
  return '/api';
}

/**
 * Socket address: the build-time setting; else on localhost:5173 the same origin (Vite proxies /socket.io),
 * on localhost otherwise a local server on port 4000, elsewhere the same origin.
 */
export function socketUrl(loc: PageLocation, settings: EndpointSettings = {}): string {
  if (settings.socketUrl) return settings.socketUrl;
  if (isLocalhost(loc) && loc.port !== DEV_FRONTEND_PORT && !settings.servedByApi) {
    return `${loc.protocol}//${loc.hostname}:${DEV_SERVER_PORT}`;
  }
  return loc.origin;
}

export function buildSettings(): EndpointSettings {
  const env = import.meta.env ?? {};
  return {
    apiUrl: env.VITE_API_URL || undefined,
    socketUrl: env.VITE_SOCKET_URL || undefined,
    servedByApi: Boolean(env.PROD),
  };
}
