// Each request's id: Fastify puts it on every log line of the request (`reqId`). A proxy's or client's
// X-Request-Id is kept when it is a sane token, so one id follows a request through the proxy's logs and ours;
// anything else (too long, odd characters that could forge log fields) gets a fresh UUID. The answer echoes it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE.test(given) ? given : randomUUID();
}

export const requestIds = fp(
  async (app) => {
    app.addHook('onRequest', (req, reply, done) => {
      reply.header(REQUEST_ID_HEADER, req.id);
      done();
    });
  },
  { name: 'request-ids' },
);
