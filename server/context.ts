// Everything a route needs, built once per server instance from the root's decorations (base.ts,
// auth/authenticate.ts, realtime/realtime.plugin.ts, conversations/lists.plugin.ts) and decorated as `ctx`.
import fp from 'fastify-plugin';
import type { AccessTokens } from './auth/access-tokens';
import type { Clock } from './clock';
import type { Config } from './config';
import type { ConversationListCache } from './conversations/list-cache';
import type { Database, Dialect } from './db/database';
import type { PushNotifier } from './push/push.plugin';
import type { RealtimeHub } from './realtime/hub';
import type { SessionSockets } from './realtime/socket-sessions';
import type { Secrets } from './secrets';

export interface AppContext {
  config: Config;
  /** The time the server's rules run on (clock.ts). */
  clock: Clock;
  db: Database;
  dialect: Dialect;
  secrets: Secrets;
  accessTokens: AccessTokens;
  realtime: RealtimeHub;
  /** Closes a sign-in's sockets on every server process (logout). */
  sessions: SessionSockets;
  /** Serialized conversation lists; every change that shows in a list must call `lists.changed`. */
  lists: ConversationListCache;
  /** Web Push to the browsers of users with no connected socket (server/push/). */
  push: PushNotifier;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export const contextPlugin = fp(
  async (app) => {
    const { config, clock, db, dialect, secrets, accessTokens, realtime, lists, push } = app;
    app.decorate('ctx', {
      config,
      clock,
      db,
      dialect,
      secrets,
      accessTokens,
      realtime,
      sessions: realtime.sessions,
      lists,
      push,
    });
  },
  {
    name: 'context',
    decorators: {
      fastify: ['config', 'clock', 'db', 'dialect', 'secrets', 'accessTokens', 'realtime', 'lists', 'push'],
    },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'push'],
  },
);
