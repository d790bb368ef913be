// Serves the built client (vite build → dist/) on the same origin as the API, with an SPA fallback
// so deep links such as /contacts load index.html. Nothing is registered without a built client (index.html).
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

export const clientStatic = fp<{ clientDir: string | null }>(
  async (app, { clientDir }) => {
    if (!clientDir || !fs.existsSync(path.join(clientDir, 'index.html'))) return;
    await app.register(fastifyStatic, { root: clientDir, wildcard: false, index: ['index.html'] });
    app.get('/*', (req, reply) => {
      const url = req.url.split('?')[0];
      if (url.startsWith('/api/') || url.startsWith('/socket.io') || path.extname(url)) {
        return reply.status(404).send({ message: `Нет такого адреса: ${req.method} ${url}` });
      }
      return reply.type('text/html').sendFile('index.html');
    });
  },
  { name: 'client-static', encapsulate: true },
);
