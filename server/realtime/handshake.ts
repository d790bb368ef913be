// Only signed-in users open sockets: the handshake carries an access token (auth.token, or ?token= for a client
// that cannot set auth) whose sign-in is still active. `session:renew` hands an open socket a fresh token of
// the same user (socket-sessions.ts keeps the socket's lifetime).
import type { ExtendedError, Socket } from 'socket.io';
import type { AccessClaims, AccessTokens } from '../auth/access-tokens';
import type { EndedSessions } from '../auth/ended-sessions';
import { type SecondFactorGate, SETUP_REQUIRED } from '../auth/second-factor-gate';
import { isSessionActive } from '../auth/refresh-tokens';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { databaseFailure } from '../db/unavailable';
import { HttpError } from '../http/errors';

export interface HandshakeDeps {
  accessTokens: AccessTokens;
  db: Database;
  clock: Clock;
  /** The in-memory list REST requests are checked against (ended-sessions.ts): the check while the database is away. */
  endedSessions: Pick<EndedSessions, 'has'>;
  /** A session that must set up a second factor first opens no socket (second-factor-gate.ts). */
  secondFactorGate?: Pick<SecondFactorGate, 'mustSetUp'>;
}

/**
 * Whether the token's sign-in is still active: asked of the database, or, while the database cannot answer, of the
 * same in-memory list every REST request is checked against, so that a device reconnecting during an outage keeps
 * its live socket instead of being refused (docs/behaviour.md §10.22 Database outage).
 */
async function signInActive(deps: HandshakeDeps, claims: AccessClaims): Promise<boolean> {
  try {
    return await isSessionActive(deps.db, claims.sessionId, deps.clock);
  } catch (err) {
    if (!databaseFailure(err)) throw err;
    return !deps.endedSessions.has(claims.sessionId);
  }
}

export const claimsOf = (socket: Socket) => socket.data.claims as AccessClaims;

/** socket.io middleware: a socket without a valid token of an active sign-in is refused before it connects. */
export function requireSignIn(deps: HandshakeDeps, log: (err: unknown) => void) {
  return async (socket: Socket, next: (err?: ExtendedError) => void): Promise<void> => {
    const auth = socket.handshake.auth as { token?: unknown } | undefined;
    const query = socket.handshake.query?.token;
    const token = typeof auth?.token === 'string' ? auth.token : typeof query === 'string' ? query : null;
    try {
      const claims = await deps.accessTokens.claims(token);
      // A token outlives its sign-in by up to its TTL: a signed-out session opens no new socket.
      if (!claims || !(await signInActive(deps, claims))) return next(new Error('Требуется вход'));
      if (await deps.secondFactorGate?.mustSetUp(claims.userId)) return next(new Error(SETUP_REQUIRED));
      socket.data.claims = claims;
      socket.data.userId = claims.userId;
      next();
    } catch (err) {
      // A database that cannot answer is the outage's refusal, which the client retries, not a fault of the server.
      const failure = databaseFailure(err);
      if (failure) return next(new Error(failure.message));
      log(err);
      next(new Error('Внутренняя ошибка сервера'));
    }
  };
}

/** Checks a `session:renew` token; `renew` moves the socket to it (false when it belongs to another user). */
export async function renewSession(
  deps: HandshakeDeps,
  token: string,
  renew: (claims: AccessClaims) => boolean,
): Promise<void> {
  const fresh = await deps.accessTokens.claims(token);
  const ok = fresh && (await signInActive(deps, fresh)) && renew(fresh);
  if (!ok) throw new HttpError(401, 'Токен недействителен или выдан другому пользователю');
}
