// Short-lived HS256 access tokens. The subject is the user id, `sid` the session (the refresh-token family) it
// belongs to, so a logout can close exactly that session's sockets. Verification insists on every claim it
// relies on (alg, typ, iss, exp, sub, sid): a token signed with the right secret but missing one is refused.
// Verifying is on every request and socket handshake, so the HMAC key is imported once and already-verified
// tokens are remembered (bounded) until they expire.
import { webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { type Clock, systemClock } from '../clock';

export const ACCESS_TOKEN_ISSUER = 'beseda';
const TYP = 'access';
/** Enough for every token in use on a busy server; the oldest entries go first when it is full. */
const CACHE_MAX = 10_000;

export interface AccessClaims {
  userId: string;
  /** The refresh-token family this token was issued for (one sign-in on one device). */
  sessionId: string;
  /** Expiry, in ms since the epoch. */
  expiresAt: number;
}

export interface AccessTokens {
  sign(userId: string, sessionId: string): Promise<string>;
  /** Returns the user id, or null for a missing, invalid or expired token. */
  verify(token: string | null | undefined): Promise<string | null>;
  /** Every claim the server relies on, or null for a missing, invalid or expired token. */
  claims(token: string | null | undefined): Promise<AccessClaims | null>;
}

export function createAccessTokens(secret: Uint8Array, ttlSec: number, clock: Clock = systemClock): AccessTokens {
  const key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  const verified = new Map<string, AccessClaims>();

  const remember = (token: string, claims: AccessClaims) => {
    if (verified.size >= CACHE_MAX) {
      const now = clock.now();
      for (const [t, c] of verified) if (c.expiresAt <= now) verified.delete(t);
      // Still full of live tokens: drop the oldest (Map keeps insertion order).
      if (verified.size >= CACHE_MAX) verified.delete(verified.keys().next().value as string);
    }
    verified.set(token, claims);
  };

  async function claims(token: string | null | undefined): Promise<AccessClaims | null> {
    if (!token) return null;
    const known = verified.get(token);
    if (known) {
      if (known.expiresAt > clock.now()) return known;
      verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, await key, {
        algorithms: ['HS256'],
        issuer: ACCESS_TOKEN_ISSUER,
        currentDate: new Date(clock.now()),
        requiredClaims: ['exp', 'sub', 'sid', 'typ'],
      });
      if (payload.typ !== TYP || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      if (typeof payload.exp !== 'number') return null;
      const result = { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
      remember(token, result);
      return result;
    } catch {
      return null;
    }
  }

  return {
    sign: async (userId, sessionId) => {
      const now = Math.floor(clock.now() / 1000);
      return new SignJWT({ typ: TYP, sid: sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(ACCESS_TOKEN_ISSUER)
        .setSubject(userId)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSec)
        .sign(await key);
    },
    verify: async (token) => (await claims(token))?.userId ?? null,
    claims,
  };
}
