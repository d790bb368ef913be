// The realtime gateway's lifecycle as a plugin: created when registered (on the server's own HTTP server),
// its sockets closed before the HTTP server closes (preClose: an open websocket would keep it open), Redis
// closed after pending presence writes (onClose, before the database plugin closes the database). Decorates
// the root with `realtime`: the hub routes emit through, and `onClientEvent` for features' socket events.
import fp from 'fastify-plugin';
import { createGateway, type Realtime } from './gateway';

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export const realtimePlugin = fp(
  async (app) => {
    const gateway = createGateway(app.server, app.config, {
      accessTokens: app.accessTokens,
      db: app.db,
      clock: app.clock,
      endedSessions: app.endedSessions,
      secondFactorGate: app.secondFactorGate,
    });
    app.decorate('realtime', gateway.realtime);
    app.addHook('onReady', async () => gateway.started());
    app.addHook('preClose', async () => gateway.stop());
    app.addHook('onClose', async () => gateway.close());
  },
  {
    name: 'realtime',
    decorators: { fastify: ['config', 'clock', 'db', 'accessTokens', 'endedSessions', 'secondFactorGate'] },
    dependencies: ['base', 'authentication'],
  },
);
