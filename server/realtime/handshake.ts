// Only signed-in users open sockets: the handshake carries an access token (auth.token, or ?token= for a client
// that cannot set auth) whose sign-in is still active. `session:renew` hands an open socket a fresh token of
// the same user (socket-sessions.ts keeps the socket's lifetime).
import type { ExtendedError, Socket } from 'socket.io';
import type { AccessClaims, AccessTokens } from '../auth/access-tokens';
import { isSessionActive } from '../auth/refresh-tokens';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { databaseFailure } from '../db/unavailable';
import { HttpError } from '../http/errors';

export interface HandshakeDeps {
  accessTokens: AccessTokens;
  db: Database;
  clock: Clock;
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
      if (!claims || !(await isSessionActive(deps.db, claims.sessionId, deps.clock)))
        return next(new Error('Требуется вход'));
      socket.data.claims = claims;
      socket.data.userId = claims.userId;
      next();
    } catch (err) {
      // The sign-in could not be checked: say so, not 'Требуется вход', which would sign the device out.
      const outage = databaseFailure(err);
      if (outage) return next(new Error(outage.message));
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
  const ok = fresh && (await isSessionActive(deps.db, fresh.sessionId, deps.clock)) && renew(fresh);
  if (!ok) throw new HttpError(401, 'Токен недействителен или выдан другому пользователю');
}
