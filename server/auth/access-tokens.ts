// Short-lived HS256 access tokens. The subject is the user id; `typ` keeps other JWTs out.
import { jwtVerify, SignJWT } from 'jose';

export interface AccessTokens {
  sign(userId: string): Promise<string>;
  /** Returns the user id, or null for a missing, invalid or expired token. */
  verify(token: string | null | undefined): Promise<string | null>;
}

export function createAccessTokens(secret: Uint8Array, ttlSec: number): AccessTokens {
  return {
    sign: (userId) =>
      new SignJWT({ typ: 'access' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSec)
        .sign(secret),
    verify: async (token) => {
      if (!token) return null;
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
        return payload.typ === 'access' && typeof payload.sub === 'string' ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}
