// The embedded media server's plain-HTTP requests (livekit-client's /rtc/v1/validate after a failed connection)
// under /sfu on the app's own port, for when the app serves HTTPS itself and the page can only reach wss://<its own
// host>/sfu (serve.ts hands the websocket upgrades over itself). Until a media server is attached: 503.
import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import { HttpError } from '../http/http-error';

export type MediaRequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface MediaGateway {
  attach(handler: MediaRequestHandler): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    mediaGateway: MediaGateway;
  }
}

export const mediaGatewayPlugin = fp(
  async (app) => {
    let handler: MediaRequestHandler | null = null;
    app.decorate('mediaGateway', {
      attach(h) {
        handler = h;
      },
    } satisfies MediaGateway);
    app.get('/sfu/*', async (req, reply) => {
      if (!handler) throw new HttpError(503, 'Медиасервер звонков не запущен');
      reply.hijack();
      handler(req.raw, reply.raw);
    });
  },
  { name: 'media-gateway' },
);
