// Passkeys' routes (docs/behaviour.md §10.7b), registered inside the auth routes' scope so a passkey's sign-in ends in
// the same session as a password's: «Безопасность» → «Ключи доступа» (list, add with the password, rename, remove
// with the password), «Войти с ключом доступа» (no username: the browser offers the passkeys it keeps) and the passkey
// as the second step after the password. A refused answer says the same whatever was wrong with it, so it tells
// nothing about which accounts or passkeys exist.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { SignedIn as SignedInSchema } from '../../src/contract/api';
import type { UsersTable } from '../db/schema';
import { contractRoute } from '../http/contract-route';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../http/errors';
import { ACCOUNT_DEACTIVATED } from './auth-texts';
import { createPasskeys, PASSKEYS_MAX, relyingParty } from './passkeys';
import { createPasswordCheck } from './password-check';
import type { SignInThrottle } from './login-throttle';
import type { TwoFactor } from './two-factor';

export const PASSKEY_REFUSED = 'Ключ доступа не подошёл. Попробуйте ещё раз или войдите с паролем';
export const PASSKEY_NOT_ADDED = 'Не удалось добавить ключ доступа. Попробуйте ещё раз';
export const PASSKEY_NOT_FOUND = 'Ключ доступа не найден';
export const PASSKEYS_FULL = `Можно добавить не больше ${PASSKEYS_MAX} ключей доступа`;
export const NO_PASSKEYS = 'У этой учётной записи нет ключей доступа';
const CHALLENGE_EXPIRED = 'Вход истёк, введите пароль снова';
const WRONG_PASSWORD = 'Неверный пароль';
/** Ceremonies one address may start a minute without signing in (each keeps a challenge until it expires). */
const OPTIONS_PER_MINUTE = 30;

type User = Selectable<UsersTable>;
type SignedIn = z.input<typeof SignedInSchema>;
type Parts = Pick<FastifyInstance, 'clock' | 'config' | 'db'>;

interface Deps {
  throttle: SignInThrottle;
  twoFactor: TwoFactor;
  issueSession(user: User, req: FastifyRequest, how: { remember: boolean; passkeyId: string }): Promise<SignedIn>;
}

export async function passkeyRoutes(app: FastifyInstance, { clock, config, db }: Parts, deps: Deps) {
  const passkeys = createPasskeys(db, clock);
  const checkPassword = createPasswordCheck(db, deps.throttle);
  const rpOf = (req: FastifyRequest) =>
    relyingParty(config.publicUrl, `${req.protocol}://${req.host}`, config.allowedOrigins);
  const view = (p: { id: string; name: string; created_at: string; last_used_at: string | null }) => ({
    id: p.id,
    name: p.name,
    createdAt: p.created_at,
    lastUsedAt: p.last_used_at,
  });

  await app.register(rateLimit, { global: false });
  const starts = app.createRateLimit({
    max: OPTIONS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (req) => `passkey:${req.ip}`,
  });
  const limited = async (req: FastifyRequest, reply: { header(k: string, v: string): unknown }) => {
    const r = await starts(req);
    if (r.isAllowed || !r.isExceeded) return;
    reply.header('retry-after', String(r.ttlInSeconds));
    throw new HttpError(429, `Слишком много попыток. Повторите через ${r.ttlInSeconds} с.`);
  };

  contractRoute(app, 'passkeys', async ({ userId }) => ({ passkeys: (await passkeys.list(userId)).map(view) }));

  contractRoute(app, 'passkeyRegisterOptions', async ({ userId, body, req }) => {
    await checkPassword(userId, body.password, WRONG_PASSWORD, req.ip);
    if ((await passkeys.count(userId)) >= PASSKEYS_MAX) throw badRequest(PASSKEYS_FULL);
    const user = await db
      .selectFrom('users')
      .select(['id', 'username', 'display_name'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const options = await passkeys.registrationOptions(rpOf(req), {
      id: user.id,
      username: user.username,
      displayName: user.display_name,
    });
    return { options: options as typeof options & Record<string, unknown> };
  });

  // The password was checked when the options were made: only a challenge made for this account is taken here.
  contractRoute(app, 'passkeyRegister', async ({ userId, body, req }) => {
    if ((await passkeys.count(userId)) >= PASSKEYS_MAX) throw badRequest(PASSKEYS_FULL);
    const added = await passkeys.register(rpOf(req), userId, body.name, body.credential);
    if (!added) throw badRequest(PASSKEY_NOT_ADDED);
    return { passkey: view(added) };
  });

  contractRoute(app, 'passkeyRename', async ({ userId, params, body }) => {
    if (!(await passkeys.rename(userId, params.id, body.name))) throw notFound(PASSKEY_NOT_FOUND);
    const renamed = (await passkeys.list(userId)).find((p) => p.id === params.id);
    if (!renamed) throw notFound(PASSKEY_NOT_FOUND);
    return { passkey: view(renamed) };
  });

  contractRoute(app, 'passkeyRemove', async ({ userId, params, body, req }) => {
    const mine = (await passkeys.list(userId)).some((p) => p.id === params.id);
    if (!mine) throw notFound(PASSKEY_NOT_FOUND);
    await checkPassword(userId, body.password, WRONG_PASSWORD, req.ip);
    await passkeys.remove(userId, params.id);
    return { ok: true as const };
  });

  /** The account the second step's challenge names (the password was right), or a 401 to start again. */
  const challenged = (challenge: string | undefined): string | null => {
    if (challenge === undefined) return null;
    const userId = deps.twoFactor.challengedUser(challenge);
    if (!userId) throw unauthorized(CHALLENGE_EXPIRED);
    return userId;
  };

  contractRoute(
    app,
    'passkeySignInOptions',
    async ({ body, req }) => {
      const userId = challenged(body.challenge);
      if (userId && (await passkeys.count(userId)) === 0) throw badRequest(NO_PASSKEYS);
      const options = await passkeys.authenticationOptions(rpOf(req), userId);
      return { options: options as typeof options & Record<string, unknown> };
    },
    { preHandler: limited },
  );

  contractRoute(app, 'passkeySignIn', async ({ body, req }) => {
    const expected = challenged(body.challenge);
    const found = await passkeys.authenticate(rpOf(req), body.credential, expected);
    const user = found
      ? await db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', found.userId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined;
    if (!found || !user) throw badRequest(PASSKEY_REFUSED);
    if (user.deactivated_at) throw forbidden(ACCOUNT_DEACTIVATED);
    // «Запомнить этот браузер» belongs to the second step; a sign-in by the passkey alone needs no remembering.
    return deps.issueSession(user, req, {
      remember: expected !== null && body.remember === true,
      passkeyId: found.passkeyId,
    });
  });

  return passkeys;
}
