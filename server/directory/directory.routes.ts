// GET /api/directory/users and /api/directory/groups (docs/behaviour.md §10.25). While the administrator keeps the
// directory off, both answer exactly what an unknown address answers (server/http/errors.ts), so nobody learns
// from them that it exists, let alone who is on the server.
import fp from 'fastify-plugin';
import { unknownAddress } from '../../src/contract/directory';
import { contractRoute } from '../http/contract-route';
import { notFound } from '../http/errors';
import { directoryGroups, directoryOn, directoryUsers } from './directory';

export const directoryRoutes = fp(
  async (app) => {
    const { db, realtime } = app;
    const online = (id: string) => realtime.isOnline(id);
    const requireOn = async (method: string, url: string) => {
      if (!(await directoryOn(db))) throw notFound(unknownAddress(method, url.split('?')[0]));
    };
    contractRoute(app, 'directoryUsers', async ({ userId, query, req }) => {
      await requireOn(req.method, req.url);
      return directoryUsers(db, online, userId, query.q, query.cursor);
    });
    contractRoute(app, 'directoryGroups', async ({ userId, query, req }) => {
      await requireOn(req.method, req.url);
      return directoryGroups(db, userId, query.q, query.cursor);
    });
  },
  {
    name: 'directory-routes',
    encapsulate: true,
    decorators: { fastify: ['db', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication'],
  },
);
