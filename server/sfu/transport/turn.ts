// TURN for clients on networks that block direct UDP (hotel Wi-Fi, offices, mobile carriers): the SFU hands every
// participant short-lived credentials for a coturn server in its JoinResponse (and ReconnectResponse), made by the
// TURN REST scheme coturn checks with `use-auth-secret`: username "<unix expiry>:<identity>", credential
// base64(HMAC-SHA1(static-auth-secret, username)). livekit-client and the Rust SDK use them as they are.
import { createHmac } from 'node:crypto';
import { ICEServer } from '@livekit/protocol';

export interface TurnOptions {
  /** turn:/turns: URLs, e.g. turn:turn.example.org:3478?transport=udp, turns:turn.example.org:5349 */
  urls: string[];
  /** coturn's static-auth-secret. */
  secret: string;
  /** Credential lifetime in seconds (default 24 h: a call outlives its TURN allocation's refreshes only then). */
  ttl?: number;
}

const URL_PATTERN = /^turns?:[^\s?]+(\?transport=(udp|tcp))?$/;

/** TURN_URLS (comma-separated) and TURN_SECRET; null when TURN_URLS is unset. Throws on a half or bad setting. */
export function turnFromEnv(env: NodeJS.ProcessEnv): TurnOptions | null {
  const urls = (env.TURN_URLS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (urls.length === 0) return null;
  const bad = urls.find((u) => !URL_PATTERN.test(u));
  if (bad) throw new Error(`Invalid TURN_URLS entry (want e.g. turn:turn.example.org:3478?transport=udp): ${bad}`);
  const secret = env.TURN_SECRET ?? '';
  if (!secret) throw new Error('TURN_URLS is set but TURN_SECRET (coturn static-auth-secret) is not');
  return { urls, secret };
}

export function turnCredentials(
  secret: string,
  identity: string,
  ttlSeconds: number,
  now = Date.now(),
): { username: string; credential: string } {
  const username = `${Math.floor(now / 1000) + ttlSeconds}:${identity}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

/** The ICE servers one participant is given; none without TURN configured. */
export function iceServersFor(turn: TurnOptions | null, identity: string): ICEServer[] {
  if (!turn) return [];
  const { username, credential } = turnCredentials(turn.secret, identity, turn.ttl ?? 24 * 3600);
  return [new ICEServer({ urls: turn.urls, username, credential })];
}
