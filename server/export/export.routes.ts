// «Экспорт данных»: POST /api/export starts an archive, GET /api/export is the newest one, GET /api/export/:id its
// status and progress, GET /api/export/:id/download the ZIP — with the bearer token, or the signed link the status
// hands out (a plain <a download> cannot send a header). Another user's export answers as one that does not exist.
import fp from 'fastify-plugin';
import { exportDownloadEndpoint } from '../../src/contract/routes';
import { contractRoute } from '../http/contract-route';
import { conflict, notFound } from '../http/errors';
import type { UploadStorage } from '../uploads/storage';
import { createExports } from './exports';

const NOT_FOUND = 'Архив не найден или уже удалён';
const NOT_READY = 'Архив ещё готовится';
/** How often expired archives are looked for. */
const SWEEP_MS = 3600_000;

export const exportRoutes = fp<{ uploads: UploadStorage; archives: UploadStorage }>(
  async (app, { uploads, archives }) => {
    const { authenticate, clock, db, secrets } = app;
    const exports = createExports({ db, clock, uploads, archives, secret: secrets.jwtSecret, log: app.log });
    const sweep = () => exports.sweep().catch((err) => app.log.warn({ err }, 'expired exports not swept'));
    const sweeper = setInterval(sweep, SWEEP_MS);
    sweeper.unref();
    app.addHook('onReady', async () => {
      await sweep();
    });
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      await exports.idle();
    });

    contractRoute(app, 'startExport', async ({ userId, reply }) => {
      reply.status(202);
      return { export: await exports.start(userId) };
    });

    contractRoute(app, 'latestExport', async ({ userId }) => {
      const row = await exports.latest(userId);
      return { export: row ? exports.view(row) : null };
    });

    contractRoute(app, 'exportStatus', async ({ userId, params }) => {
      const row = await exports.find(userId, params.id);
      if (!row) throw notFound(NOT_FOUND);
      return { export: exports.view(row) };
    });

    app.get(`/api${exportDownloadEndpoint.path}`, async (req, reply) => {
      const { id } = req.params as { id: string };
      const { token } = req.query as { token?: unknown };
      let row = null;
      if (typeof token === 'string' && !req.headers.authorization) {
        row = exports.linkValid(id, token) ? await exports.byId(id) : null;
      } else {
        row = await exports.find(await authenticate(req), id);
      }
      if (row) {
        // A deleted account's archive is nobody's to download (its links outlive the sign-ins).
        const owner = await db
          .selectFrom('users')
          .select('deleted_at')
          .where('id', '=', row.user_id)
          .executeTakeFirst();
        if (!owner || owner.deleted_at) row = null;
      }
      if (!row) throw notFound(NOT_FOUND);
      const status = exports.view(row).status;
      if (status === 'building') throw conflict(NOT_READY);
      const body = status === 'ready' ? await exports.read(row.id) : null;
      if (!body) throw notFound(NOT_FOUND);
      const day = row.created_at.slice(0, 10);
      reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', `attachment; filename="beseda-export-${day}.zip"`)
        .header('X-Content-Type-Options', 'nosniff');
      if (row.size !== null) reply.header('Content-Length', String(row.size));
      return reply.send(body);
    });
  },
  {
    name: 'export-routes',
    encapsulate: true,
    decorators: { fastify: ['clock', 'db', 'secrets', 'authenticate'] },
    dependencies: ['base', 'authentication'],
  },
);
