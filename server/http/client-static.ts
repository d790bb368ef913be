// Serves the built client (vite build → dist/) on the same origin as the API, as a production web server would:
// the Brotli or gzip copy the build wrote beside each text file (vite.config.ts) when the browser accepts it,
// content-hashed files under /assets/ cached for good, everything else revalidated, and an SPA fallback so deep
// links such as /contacts load index.html. docs/delivery.md states the choices. Nothing is registered without
// a built client (index.html).
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { cacheControlFor, isAssetUrl } from './client-cache';

export interface ClientOptions {
  clientDir: string | null;
  /** Serve the build's `.map` files (SERVE_SOURCE_MAPS); off by default, the maps are for the build's own tools. */
  sourceMaps?: boolean;
}

export const clientStatic = fp<ClientOptions>(
  async (app, { clientDir, sourceMaps }) => {
    if (!clientDir || !fs.existsSync(path.join(clientDir, 'index.html'))) return;
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: ['index.html'],
      // `preCompressed` picks `x.br`, then `x.gz`, then `x` by the request's Accept-Encoding and adds
      // `Vary: Accept-Encoding`; the compressed copies themselves get no route of their own.
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz', ...(sourceMaps ? [] : ['**/*.map'])],
      setHeaders: (res: FastifyReply, filePath: string) => {
        res.header('cache-control', cacheControlFor(path.relative(clientDir, filePath)));
      },
    });
    app.get('/*', (req, reply) => {
      const url = req.url.split('?')[0];
      // An unknown asset is a 404, never index.html with a 200: a stale page asking for a chunk of an older
      // build must fail loudly (and a browser must not cache HTML under a script's name).
      if (url.startsWith('/api/') || url.startsWith('/socket.io') || isAssetUrl(url) || path.extname(url)) {
        return reply.status(404).send({ message: `Нет такого адреса: ${req.method} ${url}` });
      }
      return reply.type('text/html').sendFile('index.html');
    });
  },
  { name: 'client-static', encapsulate: true },
);
