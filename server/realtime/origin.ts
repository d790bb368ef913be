// Which pages may open the websocket: the app's own origin (whatever host name it is reached by, over http or
// https) and the configured ALLOWED_ORIGINS. Browsers always send Origin on a websocket handshake and a page
// cannot change it, so a site elsewhere is refused even when it holds a valid token. A request without Origin
// comes from a program, not a browser page (socket.io-client in Node, the tests, a bot): such a client could
// send any Origin it likes, so refusing it would protect nothing; it still needs a valid token.
import { addressedAs, type Connection, type ProxyTrust } from '../net/client-address';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim().toLowerCase();

export function originAllowed(conn: Connection, allowed: readonly string[], trust: ProxyTrust): boolean {
  const origin = first(conn.headers.origin);
  if (!origin) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // The host the browser addressed: Host, or X-Forwarded-Host from a reverse proxy named in TRUST_PROXY (from
  // anyone else it is not believed). A page cannot set either header on a websocket handshake.
  const own = [first(conn.headers.host), addressedAs(conn, trust).host.toLowerCase()];
  if (own.includes(url.host)) return true;
  return allowed.includes(url.origin);
}
