// Access tokens and the `authenticate` function routes use (bearer token → user id, else 401), as decorations
// of the root instance.
import fp from 'fastify-plugin';
import { type Authenticate, bearerToken } from '../http/contract-route';
import { unauthorized } from '../http/errors';
import { type AccessTokens, createAccessTokens } from './access-tokens';

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    authenticate: Authenticate;
  }
}

export const authenticationPlugin = fp(
  async (app) => {
    const accessTokens = createAccessTokens(app.secrets.jwtSecret, app.config.accessTokenTtlSec, app.clock);
    app.decorate('accessTokens', accessTokens);
    app.decorate('authenticate', async (req) => {
      const userId = await accessTokens.verify(bearerToken(req));
      if (!userId) throw unauthorized();
      return userId;
    });
  },
  { name: 'authentication', decorators: { fastify: ['config', 'clock', 'secrets'] }, dependencies: ['base'] },
);
