// «Устройства», «Сменить пароль» and «Удалить аккаунт»: the user's sign-ins, ending one or all the others, a
// password change (which ends every other sign-in) and deleting the account (users/account-deletion.ts). Ending goes through sign-ins.ts, so it takes effect at once everywhere.
import fp from 'fastify-plugin';
import { bearerToken, contractRoute } from '../http/contract-route';
import { notFound, unauthorized } from '../http/errors';
import { createAccountDeletion } from '../users/account-deletion';
import { createSignInThrottle, throttleLimits } from './login-throttle';
import { createPasswordCheck } from './password-check';
import { hashPassword } from './passwords';

export const WRONG_CURRENT_PASSWORD = 'Неверный текущий пароль';
export const WRONG_PASSWORD = 'Неверный пароль';
/** How often held usernames and EBLIDs of deleted accounts are looked at for release, and lapsed sign-ins ended. */
const RELEASE_SWEEP_MS = 3600_000;
const SIGN_IN_NOT_FOUND = 'Сеанс не найден';

export const sessionsRoutes = fp(
  async (app) => {
    const { accessTokens, clock, config, db, lists, realtime, signIns } = app;
    const deletion = createAccountDeletion({ db, clock, lists, realtime, signIns });
    const throttle = createSignInThrottle(db, throttleLimits(config), clock);
    const sweep = async () => {
      await deletion.releaseExpired().catch((err) => app.log.warn({ err }, 'deleted accounts not released'));
      await signIns.endLapsed().catch((err) => app.log.warn({ err }, 'lapsed sign-ins not ended'));
      await signIns.revokeOrphans().catch((err) => app.log.warn({ err }, 'orphaned refresh tokens not revoked'));
      await throttle.sweep().catch((err) => app.log.warn({ err }, 'sign-in throttle not swept'));
    };
    const sweeper = setInterval(sweep, RELEASE_SWEEP_MS);
    sweeper.unref();
    app.addHook('onReady', async () => {
      await sweep();
    });
    app.addHook('onClose', async () => clearInterval(sweeper));

    const checkPassword = createPasswordCheck(db, throttle);

    /** The sign-in making the request (its access token's `sid`). */
    const currentOf = async (req: Parameters<typeof bearerToken>[0]) => {
      const claims = await accessTokens.claims(bearerToken(req));
      if (!claims) throw unauthorized();
      return claims.sessionId;
    };

    contractRoute(app, 'sessions', async ({ userId, req }) => {
      const current = await currentOf(req);
      const rows = await signIns.list(userId);
      return {
        sessions: rows.map((r) => ({
          id: r.id,
          browser: r.browser,
          os: r.os,
          createdAt: r.created_at,
          lastActiveAt: r.last_active_at,
          current: r.id === current,
          passkey: r.passkey_name,
        })),
      };
    });

    contractRoute(app, 'endSession', async ({ userId, params }) => {
      // Someone else's sign-in answers as one that does not exist.
      const row = await db
        .selectFrom('sign_ins')
        .select('id')
        .where('id', '=', params.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) throw notFound(SIGN_IN_NOT_FOUND);
      await signIns.end(row.id);
      return { ok: true as const };
    });

    contractRoute(app, 'endOtherSessions', async ({ userId, req }) => {
      await signIns.endAllBut(userId, await currentOf(req));
      return { ok: true as const };
    });

    contractRoute(app, 'changePassword', async ({ userId, body, req }) => {
      const current = await currentOf(req);
      await checkPassword(userId, body.currentPassword, WRONG_CURRENT_PASSWORD, req.ip);
      await db
        .updateTable('users')
        .set({ password_hash: await hashPassword(body.newPassword) })
        .where('id', '=', userId)
        .execute();
      await signIns.endAllBut(userId, current);
      // A reset link handed out before the change would undo it: pending ones end with it.
      await db.deleteFrom('password_resets').where('user_id', '=', userId).where('used_at', 'is', null).execute();
      return { ok: true as const };
    });

    contractRoute(app, 'deleteAccount', async ({ userId, body, req }) => {
      await checkPassword(userId, body.password, WRONG_PASSWORD, req.ip);
      await deletion.delete(userId);
      return { ok: true as const };
    });
  },
  {
    name: 'sessions-routes',
    encapsulate: true,
    decorators: { fastify: ['accessTokens', 'clock', 'config', 'db', 'lists', 'realtime', 'signIns', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'sign-ins'],
  },
);
