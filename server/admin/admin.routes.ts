// «Администрирование» (every route under /api/admin/ checks the caller's role on the server, on each request),
// registration's public face (its mode, invite codes for those allowed to make them), password-reset links and
// «Пожаловаться».
import fp from 'fastify-plugin';
import { signInOptions } from '../auth/oidc.routes';
import { SCHEMA_VERSION } from '../db/upgrade';
import { contractRoute } from '../http/contract-route';
import { forbidden } from '../http/errors';
import { firstAccountFree, isAdmin, requireAdmin } from './roles';
import { readSettings, writeSettings } from './server-settings';
import { serverStats } from './stats';
import { RELEASE_VERSION } from '../version';

export const VERSION = RELEASE_VERSION;

export const adminRoutes = fp(
  async (app) => {
    const { accounts, backups, clock, db, dialect, mediaRooms, realtime, registration, reports, secondFactorGate } =
      app;
    const startedAt = new Date().toISOString();
    const admin = async (userId: string) => requireAdmin(db, userId);

    contractRoute(app, 'registrationInfo', async () => {
      const settings = await readSettings(db);
      return {
        mode: settings.registration,
        firstAccount: await firstAccountFree(db),
        signIn: signInOptions(app.config, settings),
      };
    });
    contractRoute(app, 'instance', async () => ({
      uploadLimitBytes: app.config.uploadLimitBytes,
      secureUrl: app.config.publicUrl?.startsWith('https:') ? app.config.publicUrl : null,
      directory: (await readSettings(db)).directory,
    }));

    contractRoute(app, 'passwordResetInfo', async ({ params }) => accounts.resetInfo(params.token));
    contractRoute(app, 'resetPassword', async ({ body }) => {
      await accounts.resetPassword(body.token, body.password);
      return { ok: true as const };
    });

    contractRoute(app, 'report', async ({ userId, body }) => {
      await reports.file(userId, body);
      return { ok: true as const };
    });
    contractRoute(app, 'reportNotices', async ({ userId }) => ({ notices: await reports.notices(userId) }));
    contractRoute(app, 'reportNoticesSeen', async ({ userId, body }) => {
      await reports.seen(userId, body.ids);
      return { ok: true as const };
    });

    /** Administrators see and revoke every code; members their own, and make them only when allowed. */
    async function inviter(userId: string): Promise<{ admin: boolean; canCreate: boolean }> {
      if (await isAdmin(db, userId)) return { admin: true, canCreate: true };
      return { admin: false, canCreate: (await readSettings(db)).membersCanInvite };
    }
    contractRoute(app, 'registrationInvites', async ({ userId }) => {
      const who = await inviter(userId);
      return { invites: await registration.list(who.admin ? null : userId), canCreate: who.canCreate };
    });
    contractRoute(
      app,
      'createRegistrationInvite',
      async ({ userId, body }) => {
        if (!(await inviter(userId)).canCreate) throw forbidden('Приглашения создают только администраторы');
        return { invite: await registration.create(userId, body) };
      },
      { status: 201 },
    );
    contractRoute(app, 'revokeRegistrationInvite', async ({ userId, body }) => {
      const who = await inviter(userId);
      await registration.revoke(body.code, who.admin ? null : userId);
      return { ok: true as const };
    });

    contractRoute(app, 'adminUsers', async ({ userId, query }) => {
      await admin(userId);
      return accounts.list(query.q || undefined, query.cursor);
    });
    contractRoute(app, 'adminDeactivate', async ({ userId, body }) => {
      await admin(userId);
      return { user: await accounts.deactivate(body.userId, userId) };
    });
    contractRoute(app, 'adminReactivate', async ({ userId, body }) => {
      await admin(userId);
      return { user: await accounts.reactivate(body.userId) };
    });
    contractRoute(app, 'adminEndSessions', async ({ userId, body }) => {
      await admin(userId);
      return { user: await accounts.endAllSessions(body.userId) };
    });
    contractRoute(app, 'adminResetSecondFactor', async ({ userId, body }) => {
      await admin(userId);
      const user = await accounts.resetSecondFactor(body.userId);
      // No audit log exists yet: the server's log keeps who did it.
      app.log.info({ by: userId, userId: body.userId }, 'second factor reset by an administrator');
      return { user };
    });
    contractRoute(app, 'adminResetLink', async ({ userId, body }) => {
      await admin(userId);
      const link = await accounts.resetLink(body.userId, userId);
      return { path: `/reset/${link.token}`, expiresAt: link.expiresAt };
    });
    contractRoute(app, 'adminRole', async ({ userId, body }) => {
      await admin(userId);
      return { user: await accounts.setRole(body.userId, body.role) };
    });
    contractRoute(app, 'adminStats', async ({ userId }) => {
      await admin(userId);
      const calls = mediaRooms.stats();
      return {
        ...(await serverStats(db, clock.now())),
        sockets: realtime.localSockets(),
        calls: calls?.rooms ?? 0,
        version: VERSION,
        schema: SCHEMA_VERSION,
        startedAt,
        database: dialect === 'postgres' ? ('postgres' as const) : ('sqlite' as const),
        storage: app.config.s3 ? ('s3' as const) : ('disk' as const),
        backup: await backups.status(),
      };
    });
    contractRoute(app, 'adminSettings', async ({ userId }) => {
      await admin(userId);
      return { settings: await readSettings(db) };
    });
    contractRoute(app, 'patchAdminSettings', async ({ userId, body }) => {
      await admin(userId);
      const settings = await writeSettings(db, body);
      // The requirement of a second factor counts at once here (other processes read it again within seconds).
      secondFactorGate.forget();
      return { settings };
    });
    contractRoute(app, 'adminReports', async ({ userId, query }) => {
      await admin(userId);
      return { reports: await reports.list(query.status) };
    });
    contractRoute(app, 'resolveReport', async ({ userId, body }) => {
      await admin(userId);
      await reports.resolve(userId, body.reportId, body.action);
      return { ok: true as const };
    });
  },
  {
    name: 'admin-routes',
    encapsulate: true,
    decorators: {
      fastify: [
        'accounts',
        'backups',
        'clock',
        'db',
        'dialect',
        'mediaRooms',
        'realtime',
        'registration',
        'reports',
        'secondFactorGate',
        'authenticate',
      ],
    },
    dependencies: ['base', 'authentication', 'administration', 'backups', 'media-rooms'],
  },
);
