// «Безопасность» → «Двухэтапная проверка» (docs/behaviour.md §10.7a): its state, setting it up (a secret shown as a
// QR code, confirmed with a first code, answered with ten recovery codes shown once), new recovery codes, turning
// it off. Whatever weakens it or replaces it (a reset, new codes, off) needs the password.
import fp from 'fastify-plugin';
import { readSettings } from '../admin/server-settings';
import { contractRoute } from '../http/contract-route';
import { badRequest } from '../http/errors';
import { WRONG_CODE } from './auth.routes';
import { requiresTwoFactor } from './second-factor-gate';
import { createSignInThrottle, throttleLimits } from './login-throttle';
import { createPasswordCheck } from './password-check';
import { WRONG_PASSWORD } from './sessions.routes';
import { createTwoFactor } from './two-factor';

export const PASSWORD_NEEDED = 'Введите пароль';
export const NOT_ENABLED = 'Двухэтапная проверка не включена';

export const twoFactorRoutes = fp(
  async (app) => {
    const { clock, config, db, secrets } = app;
    const twoFactor = createTwoFactor(db, clock, secrets.jwtSecret, secrets.dataKey);
    const checkPassword = createPasswordCheck(db, createSignInThrottle(db, throttleLimits(config), clock));
    const account = (userId: string) =>
      db.selectFrom('users').select(['username', 'role']).where('id', '=', userId).executeTakeFirstOrThrow();

    contractRoute(app, 'twoFactor', async ({ userId }) => {
      const [on, left, user, settings] = await Promise.all([
        twoFactor.settings(userId),
        twoFactor.recoveryCodesLeft(userId),
        account(userId),
        readSettings(db),
      ]);
      return {
        enabled: on !== null,
        recoveryCodesLeft: on ? left : 0,
        required: requiresTwoFactor(settings.twoFactorRequired, user.role),
      };
    });

    contractRoute(app, 'twoFactorBegin', async ({ userId, body, req }) => {
      if (await twoFactor.settings(userId)) {
        if (!body.password) throw badRequest(PASSWORD_NEEDED);
        await checkPassword(userId, body.password, WRONG_PASSWORD, req.ip);
      }
      return twoFactor.begin(userId, (await account(userId)).username);
    });

    contractRoute(app, 'twoFactorConfirm', async ({ userId, body }) => {
      const codes = await twoFactor.confirm(userId, body.code);
      if (!codes) throw badRequest(WRONG_CODE);
      return { recoveryCodes: codes };
    });

    contractRoute(app, 'twoFactorDisable', async ({ userId, body, req }) => {
      await checkPassword(userId, body.password, WRONG_PASSWORD, req.ip);
      await twoFactor.disable(userId);
      return { ok: true as const };
    });

    contractRoute(app, 'recoveryCodes', async ({ userId, body, req }) => {
      if (!(await twoFactor.settings(userId))) throw badRequest(NOT_ENABLED);
      await checkPassword(userId, body.password, WRONG_PASSWORD, req.ip);
      return { recoveryCodes: await twoFactor.regenerate(userId) };
    });
  },
  {
    name: 'two-factor-routes',
    encapsulate: true,
    decorators: { fastify: ['clock', 'config', 'db', 'secrets', 'authenticate'] },
    dependencies: ['base', 'authentication'],
  },
);
