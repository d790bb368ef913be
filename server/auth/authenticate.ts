// Access tokens and the `authenticate` function routes use (bearer token → user id, else 401), as decorations
// of the root instance.
import fp from 'fastify-plugin';
import { type Authenticate, bearerToken } from '../http/contract-route';
import { forbidden, unauthorized } from '../http/errors';
import { createSecondFactorGate, type SecondFactorGate, SETUP_REQUIRED } from './second-factor-gate';
import { type AccessTokens, createAccessTokens } from './access-tokens';
import { createEndedSessions, type EndedSessions } from './ended-sessions';

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    authenticate: Authenticate;
    /** Sign-ins whose access tokens are refused before they expire (ended-sessions.ts). */
    endedSessions: EndedSessions;
    /** Keeps a session that must set up a second factor to the set-up (second-factor-gate.ts). */
    secondFactorGate: SecondFactorGate;
  }
}

export const SESSION_ENDED = 'Сеанс завершён, войдите снова';

export const authenticationPlugin = fp(
  async (app) => {
    const accessTokens = createAccessTokens(app.secrets.jwtSecret, app.config.accessTokenTtlSec, app.clock);
    const endedSessions = createEndedSessions(app.db, app.clock, app.config.accessTokenTtlSec);
    await endedSessions.load();
    app.decorate('accessTokens', accessTokens);
    app.decorate('endedSessions', endedSessions);
    const gate = createSecondFactorGate(app.db, app.clock);
    app.decorate('secondFactorGate', gate);
    app.decorate('authenticate', async (req) => {
      const claims = await accessTokens.claims(bearerToken(req));
      if (!claims) throw unauthorized();
      // A signed JWT outlives a sign-out; this in-memory check (no query) ends it with its sign-in.
      if (endedSessions.has(claims.sessionId)) throw unauthorized(SESSION_ENDED);
      if (!gate.open(req.routeOptions?.url) && (await gate.mustSetUp(claims.userId))) throw forbidden(SETUP_REQUIRED);
      return claims.userId;
    });
  },
  {
    name: 'authentication',
    decorators: { fastify: ['config', 'clock', 'db', 'secrets'] },
    dependencies: ['base'],
  },
);
