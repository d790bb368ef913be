// Verifies the LiveKit access token a client presents: HS256 signed with the API secret, issued by the API key,
// within nbf/exp, with a room grant. The same key pair signs tokens in the token route (livekit-server-sdk).
import { errors, jwtVerify } from 'jose';
import type { Grants } from '../grants';

export type { Grants };

export class TokenError extends Error {
  constructor(
    message: string,
    readonly status: 401 | 403,
  ) {
    super(message);
  }
}

interface VideoClaim {
  room?: string;
  roomJoin?: boolean;
  canPublish?: boolean;
  canSubscribe?: boolean;
  canPublishData?: boolean;
  canUpdateOwnMetadata?: boolean;
  hidden?: boolean;
}

/** `now`: the time the token's exp and nbf are checked against (ms since the epoch). */
export async function verifyAccessToken(
  token: string | null,
  apiKey: string,
  apiSecret: string,
  now: number = Date.now(),
): Promise<Grants> {
  if (!token) throw new TokenError('missing access_token', 401);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(apiSecret), {
      issuer: apiKey,
      algorithms: ['HS256'],
      clockTolerance: 5,
      currentDate: new Date(now),
    }));
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new TokenError('invalid token: token is expired', 401);
    if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'nbf')
      throw new TokenError('invalid token: token is not valid yet', 401);
    if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'iss')
      throw new TokenError('invalid token: unknown API key', 401);
    throw new TokenError('invalid token: signature or format is not valid', 401);
  }
  const video = (payload.video ?? {}) as VideoClaim;
  const identity = typeof payload.sub === 'string' ? payload.sub : '';
  if (!identity) throw new TokenError('permission denied: token has no identity', 401);
  if (!video.roomJoin || !video.room) throw new TokenError('permission denied: token does not grant roomJoin', 401);
  // LiveKit treats absent publish/subscribe grants as allowed.
  return {
    identity,
    name: typeof payload.name === 'string' ? payload.name : '',
    metadata: typeof payload.metadata === 'string' ? payload.metadata : '',
    attributes: isStringRecord(payload.attributes) ? payload.attributes : {},
    room: video.room,
    canPublish: video.canPublish !== false,
    canSubscribe: video.canSubscribe !== false,
    canPublishData: video.canPublishData !== false,
    canUpdateMetadata: video.canUpdateOwnMetadata === true,
    hidden: video.hidden === true,
    issuedAt:
      typeof payload.nbf === 'number' ? payload.nbf * 1000 : typeof payload.iat === 'number' ? payload.iat * 1000 : 0,
  };
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && Object.values(v).every((x) => typeof x === 'string');
}
