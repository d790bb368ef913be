// «Экспорт данных»: POST /api/export starts an archive, GET /api/export is the newest one, GET /api/export/:id its
// status and progress, GET /api/export/:id/download the ZIP — with the bearer token, or the signed link the status
// hands out (a plain <a download> cannot send a header), which works only while the sign-in it was handed to lasts.
// Another user's export answers as one that does not exist.
import fp from 'fastify-plugin';
import { exportDownloadEndpoint } from '../../src/contract/routes';
import { bearerToken, contractRoute } from '../http/contract-route';
import { conflict, HttpError, notFound, unauthorized } from '../http/errors';
import type { UploadStorage } from '../uploads/storage';
import { createExports } from './exports';

const NOT_FOUND = 'Архив не найден или уже удалён';
const NOT_READY = 'Архив ещё готовится';
const LINK_ENDED =
  'Ссылка больше не действует: сеанс, в котором она получена, завершён. Войдите и скачайте архив снова';
/** How often expired archives are looked for. */
const SWEEP_MS = 3600_000;

export const exportRoutes = fp<{ uploads: UploadStorage; archives: UploadStorage }>(
  async (app, { uploads, archives }) => {
    const { accessTokens, authenticate, clock, db, endedSessions, secrets } = app;
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

    /** Whether the user's sign-in still stands (ended ones leave `sign_ins` and are refused at once here). */
    const signInLive = async (sessionId: string, userId: string) => {
      if (endedSessions.has(sessionId)) return false;
      const row = await db
        .selectFrom('sign_ins')
        .select('id')
        .where('id', '=', sessionId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Boolean(row);
    };

    /** The sign-in asking (its access token's `sid`): the download links it is handed are bound to it. */
    const sessionOf = async (req: Parameters<typeof bearerToken>[0]) => {
      const claims = await accessTokens.claims(bearerToken(req));
      if (!claims) throw unauthorized();
      return claims.sessionId;
    };

    contractRoute(app, 'startExport', async ({ userId, req, reply }) => {
      reply.status(202);
      return { export: await exports.start(userId, await sessionOf(req)) };
    });

    contractRoute(app, 'latestExport', async ({ userId, req }) => {
      const row = await exports.latest(userId);
      return { export: row ? exports.view(row, await sessionOf(req)) : null };
    });

    contractRoute(app, 'exportStatus', async ({ userId, params, req }) => {
      const row = await exports.find(userId, params.id);
      if (!row) throw notFound(NOT_FOUND);
      return { export: exports.view(row, await sessionOf(req)) };
    });

    app.get(`/api${exportDownloadEndpoint.path}`, async (req, reply) => {
      const { id } = req.params as { id: string };
      const { token } = req.query as { token?: unknown };
      let row = null;
      if (typeof token === 'string' && !req.headers.authorization) {
        const sessionId = exports.linkSession(id, token);
        row = sessionId ? await exports.byId(id) : null;
        // A link dies with the sign-in it was handed to (signed out, ended from «Устройства», a password change).
        if (row && sessionId && !(await signInLive(sessionId, row.user_id))) throw new HttpError(410, LINK_ENDED);
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
      const status = exports.statusOf(row);
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
    decorators: { fastify: ['accessTokens', 'clock', 'db', 'endedSessions', 'secrets', 'authenticate'] },
    dependencies: ['base', 'authentication'],
  },
);
