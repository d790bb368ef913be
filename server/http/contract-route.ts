// Registers a route from the contract table: authenticates, validates params/query/body with the
// contract's schemas, and shapes the reply with the response schema (so no private field leaks).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import type { Api, RouteName } from '../../src/contract/api';
import { api } from '../../src/contract/api';
import { unauthorized } from './errors';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<K extends RouteName> {
  body: Api[K] extends { body: infer B } ? Out<B> : undefined;
  query: Api[K] extends { query: infer Q } ? Out<Q> : undefined;
  params: Api[K] extends { params: infer P } ? Out<P> : undefined;
  /** The authenticated user's id ('' on public routes). */
  userId: string;
  req: FastifyRequest;
  reply: FastifyReply;
}

export type Authenticate = (req: FastifyRequest) => Promise<string>;

declare module 'fastify' {
  interface FastifyRequest {
    userId?: string;
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

export function contractRoute<K extends RouteName>(
  app: FastifyInstance,
  authenticate: Authenticate,
  name: K,
  handler: (input: RouteInput<K>) => Promise<z.input<Api[K]['response']>>,
  options: { config?: Record<string, unknown>; status?: number } = {},
): void {
  const def = api[name] as Api[RouteName];
  const opts: RouteShorthandOptions = { config: options.config };
  app.route({
    ...opts,
    method: def.method,
    url: `/api${def.path}`,
    onRequest: def.auth
      ? async (req) => {
          req.userId = await authenticate(req);
        }
      : undefined,
    handler: async (req, reply) => {
      if (def.auth && !req.userId) throw unauthorized();
      const input = {
        body: 'body' in def && def.body ? def.body.parse(req.body ?? {}) : undefined,
        query: 'query' in def && def.query ? def.query.parse(req.query ?? {}) : undefined,
        params: 'params' in def && def.params ? def.params.parse(req.params ?? {}) : undefined,
        userId: req.userId ?? '',
        req,
        reply,
      } as RouteInput<K>;
      const result = await handler(input);
      reply.status(options.status ?? 200);
      return def.response.parse(result);
    },
  });
}
