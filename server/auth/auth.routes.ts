import { ACCOUNT_DEACTIVATED } from './auth-texts';
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { claimFirstAdmin } from '../admin/roles';
import { isUniqueViolation } from '../db/database';
import type { UsersTable } from '../db/schema';
import { contractRoute } from '../http/contract-route';
import { readSettings } from '../admin/server-settings';
import { badRequest, conflict, forbidden, HttpError, unauthorized } from '../http/errors';
import { ensureSavedChat } from '../saved/saved-chat';
import { pickFreeEblid } from '../users/eblid';
import { toOwnUser } from '../users/user-view';
import { createDeviceMarks, DEVICE_MARKS_MAX } from './device-marks';
import { type CheckOutcome, createSignInThrottle, lockedMessage, throttleLimits } from './login-throttle';
import { dummyHash, hashPassword, verifyPassword } from './passwords';
import { oidcRoutes } from './oidc.routes';
import { familyOf, issueRefreshToken, rotateRefreshToken } from './refresh-tokens';
import { passkeyRoutes } from './passkeys.routes';
import { requiresTwoFactor } from './second-factor-gate';
import { createTwoFactor, REMEMBER_MS, REMEMBERED_MAX } from './two-factor';

const REFRESH_REFUSED = 'Сессия истекла, войдите снова';
export const CHALLENGE_EXPIRED = 'Вход истёк, введите пароль снова';
export const WRONG_CODE = 'Неверный код';
export const EBLID_EXHAUSTED = 'Свободные EBLID закончились: регистрация новых пользователей невозможна';

/** Registration, sign-in, token refresh and sign-out. */
export const authRoutes = fp(
  async (app) => {
    const { accessTokens, clock, config, db, endedSessions, registration, secrets, signIns } = app;
    const throttle = createSignInThrottle(db, throttleLimits(config), clock);
    const deviceMarks = createDeviceMarks(secrets.jwtSecret);
    // A browser keeps its marks in an HttpOnly cookie scoped to the auth routes: sent by itself with every sign-in,
    // out of the page's reach, and nothing in storage that sign-out would have to wipe (it names no account).
    const cookiesToSet = new WeakMap<object, string[]>();
    app.addHook('onSend', async (req, reply, payload) => {
      const cookies = cookiesToSet.get(req);
      if (cookies) reply.header('set-cookie', cookies);
      return payload;
    });
    const twoFactor = createTwoFactor(db, clock, secrets.jwtSecret, secrets.dataKey);
    const passkeys = await passkeyRoutes(
      app,
      { clock, config, db },
      {
        throttle,
        twoFactor,
        issueSession: (user, req, how) => issueSession(user, req, how),
      },
    );

    /**
     * The account's second step, if it has one: a code from the app and/or a passkey, and since when it is set up as
     * it is (the authenticator's turning on, else the first passkey kept): a browser is remembered for that.
     */
    async function secondStep(userId: string) {
      const [totp, passkeyCount, firstPasskey] = await Promise.all([
        twoFactor.settings(userId),
        passkeys.count(userId),
        passkeys.oldest(userId),
      ]);
      const since = totp?.enabledAt ?? firstPasskey;
      return since ? { totp: totp !== null, passkey: passkeyCount > 0, since } : null;
    }

    contractRoute(
      app,
      'register',
      async ({ body }) => {
        const usernameLower = body.username.toLowerCase();
        const existing = await db
          .selectFrom('users')
          .select('id')
          .where('username_lower', '=', usernameLower)
          .executeTakeFirst();
        if (existing) throw conflict('Этот никнейм уже занят');
        await oidc.passwordRegistrationAllowed();
        const passwordHash = await hashPassword(body.password);
        // Closed or invite-only registration refuses here; a code's use is given back if the account is not made.
        const giveBack = await registration.admit(body.inviteCode);
        try {
          return await createAccount(body, usernameLower, passwordHash);
        } catch (err) {
          await giveBack();
          throw err;
        }
      },
      { status: 201 },
    );

    async function createAccount(
      body: { username: string; displayName: string },
      usernameLower: string,
      passwordHash: string,
    ) {
      // A concurrent registration may take the same EBLID or username: retry the EBLID, report the name.
      for (let attempt = 0; attempt < 5; attempt++) {
        const eblid = await pickFreeEblid(db);
        if (!eblid) throw new HttpError(409, EBLID_EXHAUSTED);
        const row = {
          id: randomUUID(),
          username: body.username,
          username_lower: usernameLower,
          display_name: body.displayName,
          password_hash: passwordHash,
          email: null,
          email_lower: null,
          avatar_url: null,
          status: 'ONLINE',
          last_seen_at: null,
          eblid,
          bio: null,
          created_at: new Date().toISOString(),
          deleted_at: null,
          role: 'member',
          deactivated_at: null,
        };
        try {
          await db.insertInto('users').values(row).execute();
          // The first account of an empty server administers it.
          if (await claimFirstAdmin(db, row.id)) row.role = 'admin';
          // «Избранное» from the first moment (docs/behaviour.md §10.31).
          await ensureSavedChat(db, row.id);
          return { user: toOwnUser(row) };
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
          const taken = await db
            .selectFrom('users')
            .select('id')
            .where('username_lower', '=', usernameLower)
            .executeTakeFirst();
          if (taken) throw conflict('Этот никнейм уже занят');
        }
      }
      throw new HttpError(503, 'Не удалось выделить EBLID, попробуйте ещё раз');
    }

    contractRoute(app, 'login', async ({ body, req }) => {
      const user = await checkPassword(body.username, body.password, req, body.deviceMarks ?? []);
      if (user.deactivated_at) throw forbidden(ACCOUNT_DEACTIVATED);
      await oidc.passwordSignInAllowed(user);
      // Only now, after the right password, does the second step show (an account's settings never show before).
      const second = await secondStep(user.id);
      if (second && !twoFactor.remembered(user.id, second.since, cookieValues(req.headers.cookie, REMEMBER_COOKIE))) {
        return {
          secondFactor: { challenge: twoFactor.challenge(user.id), totp: second.totp, passkey: second.passkey },
        };
      }
      return issueSession(user, req);
    });

    /**
     * The account behind a username and password, counted by the sign-in limits (login-throttle.ts); a wrong pair
     * is a 401 that does not say which was wrong.
     */
    async function checkPassword(
      username: string,
      password: string,
      req: FastifyRequest,
      offeredMarks: string[],
    ): Promise<Selectable<UsersTable>> {
      const usernameLower = username.trim().toLowerCase();
      const user = await accountNamed(usernameLower);
      // A browser that signed into this account before is counted on its mark; any other by its address (an
      // unknown name never has a valid mark, so it goes the same way as a known name without one).
      const offered = [...offeredMarks, ...cookieMarks(req.headers.cookie)];
      const deviceNonce = user ? deviceMarks.nonceFor(user.id, offered) : null;
      const admitted = await throttle.admit(usernameLower, deviceNonce ? { deviceNonce } : { address: req.ip });
      if (!admitted.ok) throw new HttpError(429, lockedMessage(admitted.waitSec));
      let outcome: CheckOutcome = 'refused';
      try {
        await holdBack(admitted.delayMs);
        const verified = await verifyPassword(user?.password_hash ?? (await dummyHash()), password);
        outcome = user && verified ? 'succeeded' : 'failed';
      } finally {
        // The slot goes back whatever happened; a server fault counts neither way.
        await throttle.finish(admitted.ticket, outcome);
      }
      if (!user || outcome !== 'succeeded') throw unauthorized('Неверный никнейм или пароль');
      return user;
    }

    contractRoute(app, 'loginSecondFactor', async ({ body, req }) => {
      const userId = twoFactor.challengedUser(body.challenge);
      const user = userId
        ? await db
            .selectFrom('users')
            .selectAll()
            .where('id', '=', userId)
            .where('deleted_at', 'is', null)
            .executeTakeFirst()
        : undefined;
      if (!user) throw unauthorized(CHALLENGE_EXPIRED);
      const kept = cookieMarks(req.headers.cookie);
      const deviceNonce = deviceMarks.nonceFor(user.id, kept);
      // A wrong code counts as a wrong password would, on the same counters: guessing codes locks as guessing does.
      const admitted = await throttle.admit(user.username_lower, deviceNonce ? { deviceNonce } : { address: req.ip });
      if (!admitted.ok) throw new HttpError(429, lockedMessage(admitted.waitSec));
      let outcome: CheckOutcome = 'refused';
      try {
        await holdBack(admitted.delayMs);
        outcome = (await twoFactor.verify(user.id, body.code)) ? 'succeeded' : 'failed';
      } finally {
        await throttle.finish(admitted.ticket, outcome);
      }
      if (outcome !== 'succeeded') throw badRequest(WRONG_CODE);
      if (user.deactivated_at) throw forbidden(ACCOUNT_DEACTIVATED);
      return issueSession(user, req, { remember: body.remember === true });
    });

    /**
     * A new sign-in of `user`: its refresh-token family, its line in «Устройства», this browser's device mark (and,
     * after a second factor with «Запомнить этот браузер», the remembered note).
     */
    async function issueSession(
      user: Selectable<UsersTable>,
      req: FastifyRequest,
      { remember = false, passkeyId = null }: { remember?: boolean; passkeyId?: string | null } = {},
    ) {
      const kept = cookieMarks(req.headers.cookie);
      const session = await issueRefreshToken(db, user.id, config.refreshTokenTtlSec, null, clock);
      await signIns.record(session.familyId, user.id, req.headers['user-agent'], passkeyId);
      const deviceMark = deviceMarks.issue(user.id);
      // The newest first, this account's older mark dropped, at most the few a request may carry.
      const others = kept.filter((m) => deviceMarks.nonceFor(user.id, [m]) === null);
      const cookies = [
        deviceCookie([deviceMark, ...others].slice(0, DEVICE_MARKS_MAX).join('~'), req.protocol === 'https'),
      ];
      const second = await secondStep(user.id);
      if (remember && second) {
        const notes = cookieValues(req.headers.cookie, REMEMBER_COOKIE);
        const fresh = twoFactor.remember(user.id, second.since);
        cookies.push(rememberCookie([fresh, ...notes].slice(0, REMEMBERED_MAX).join('~'), req.protocol === 'https'));
      }
      cookiesToSet.set(req, cookies);
      return {
        user: toOwnUser(user),
        accessToken: await accessTokens.sign(user.id, session.familyId),
        refreshToken: session.token,
        deviceMark,
        twoFactorSetup: !second && requiresTwoFactor((await readSettings(db)).twoFactorRequired, user.role),
      };
    }

    // The organisation's sign-in (oidc.routes.ts) ends in the same sign-in as a password.
    const oidc = oidcRoutes(
      app,
      { config, db, registration, secrets },
      {
        checkPassword,
        issueSession: (user, req) => issueSession(user, req),
        createAccount,
        hasSecondFactor: async (userId) => (await secondStep(userId)) !== null,
      },
    );

    /** The account signed into by that name, if any (deleted accounts are none). */
    function accountNamed(usernameLower: string): Promise<Selectable<UsersTable> | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('username_lower', '=', usernameLower)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    }

    /** Holds an unknown browser's answer back while the whole server is past its limit (on the server's clock). */
    function holdBack(ms: number): Promise<void> {
      return ms > 0 ? new Promise((resolve) => clock.setTimeout(resolve, ms)) : Promise.resolve();
    }

    contractRoute(app, 'refresh', async ({ body }) => {
      const r = await rotateRefreshToken(
        db,
        body.refreshToken,
        {
          ttlSec: config.refreshTokenTtlSec,
          maxAgeSec: config.refreshTokenMaxAgeSec,
        },
        clock,
      );
      if (!r.ok) {
        // Said at warn: a reuse ends a sign-in on every device, and the log is where an operator asked «why was I
        // signed out?» looks (the token itself is never logged).
        app.log.warn({ reason: r.reason, session: r.ended ?? null }, 'refresh token refused');
        if (r.ended) await signIns.end(r.ended);
        throw unauthorized(REFRESH_REFUSED);
      }
      // A sign-in ended while this rotation committed is already on the list (sign-ins.ts marks it first): its new
      // tokens are refused too. No await between the check and signing, so a token signed here expires before an
      // ending marked after the check stops being remembered.
      if (endedSessions.has(r.familyId)) throw unauthorized(REFRESH_REFUSED);
      return { accessToken: await accessTokens.sign(r.userId, r.familyId), refreshToken: r.token };
    });

    contractRoute(app, 'logout', async ({ body }) => {
      const sessionId = await familyOf(db, body.refreshToken);
      // Its refresh tokens, access tokens, sockets and pushes stop at once, on every process (sign-ins.ts).
      if (sessionId) await signIns.end(sessionId);
      return { ok: true as const };
    });
  },
  {
    name: 'auth-routes',
    encapsulate: true,
    decorators: {
      fastify: [
        'accessTokens',
        'clock',
        'config',
        'db',
        'endedSessions',
        'registration',
        'secrets',
        'signIns',
        'authenticate',
      ],
    },
    dependencies: ['base', 'authentication', 'sign-ins', 'administration'],
  },
);

const DEVICE_COOKIE = 'beseda_device';
const REMEMBER_COOKIE = 'beseda_2fa';
const MARK_SHAPE = /^[\w-]{1,64}\.[\w-]{1,64}$/;

/** The marks the browser's cookie carries (malformed ones ignored). */
export function cookieMarks(header: string | undefined): string[] {
  return cookieValues(header, DEVICE_COOKIE)
    .filter((m) => MARK_SHAPE.test(m))
    .slice(0, DEVICE_MARKS_MAX);
}

/** The `~`-separated values of one cookie. */
function cookieValues(header: string | undefined, cookie: string): string[] {
  if (!header) return [];
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === cookie && value) return value.split('~').slice(0, DEVICE_MARKS_MAX);
  }
  return [];
}

function deviceCookie(value: string, secure: boolean): string {
  // 400 days, the longest a browser keeps a cookie; renewed at each sign-in.
  return authCookie(DEVICE_COOKIE, value, 400 * 24 * 3600, secure);
}

/** «Запомнить этот браузер на 30 дней»: the notes of the accounts it is remembered for (each expires by itself). */
function rememberCookie(value: string, secure: boolean): string {
  return authCookie(REMEMBER_COOKIE, value, REMEMBER_MS / 1000, secure);
}

function authCookie(name: string, value: string, maxAgeSec: number, secure: boolean): string {
  const attributes = ['Path=/api/auth', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSec}`];
  if (secure) attributes.push('Secure');
  return `${name}=${value}; ${attributes.join('; ')}`;
}
