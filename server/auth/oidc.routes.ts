// The organisation's sign-in (docs/administration.md «Вход через организацию», docs/behaviour.md §10.41). The
// browser leaves from GET /api/auth/oidc/start with the round trip's token in a short-lived HttpOnly cookie, comes
// back to /api/auth/oidc/callback, which passes the provider's answer to the page /auth/oidc, and the page finishes
// with POST /api/auth/oidc/complete: a linked person is signed in as a password would sign them in; anyone else gets
// a pending link, to create an account (as registration allows) or to link theirs by its password
// (/api/auth/oidc/link). An e-mail never links anything. The provider is asked at every sign-in, so a person it
// refuses (disabled there) gets no new sign-in here; sign-ins already made run out as a password's do.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { SignedIn as SignedInSchema } from '../../src/contract/api';
import type { ServerSettings, SignInOptions } from '../../src/contract/administration';
import type { Config } from '../config';
import { OIDC_PAGE } from '../../src/contract/oidc-paths';
import { firstAccountFree } from '../admin/roles';
import { readSettings } from '../admin/server-settings';
import { isUniqueViolation } from '../db/database';
import type { UsersTable } from '../db/schema';
import { contractRoute } from '../http/contract-route';
import { conflict, forbidden, notFound } from '../http/errors';
import { ACCOUNT_DEACTIVATED } from './auth-texts';
import { createOidcProvider, OIDC_ROUND_TRIP_SEC, type OidcPerson } from './oidc-provider';
import { accountUsername } from './oidc-username';

type User = Selectable<UsersTable>;
type SignedIn = z.input<typeof SignedInSchema>;

interface Deps {
  checkPassword(username: string, password: string, req: FastifyRequest, marks: string[]): Promise<User>;
  issueSession(user: User, req: FastifyRequest): Promise<SignedIn>;
  createAccount(
    body: { username: string; displayName: string },
    usernameLower: string,
    passwordHash: string,
  ): Promise<{ user: { id: string } }>;
  /** Whether the account has a second factor (two-factor.ts): its password alone does not link it. */
  hasSecondFactor(userId: string): Promise<boolean>;
}

const TRIP_COOKIE = 'beseda_oidc';
const PERSON_LINKED = 'Этот вход через организацию уже связан с учётной записью. Начните вход заново';
const ACCOUNT_LINKED = 'Эта учётная запись уже связана с другим пользователем организации';
const LINK_NEEDS_SECOND_FACTOR =
  'Эту учётную запись защищает двухэтапная проверка, поэтому одного пароля для связи мало. Войдите с паролем и кодом, отключите проверку в «Безопасность» и свяжите вход снова';

/** What the routes read, handed in by the auth routes' plugin (which declares them). */
type Parts = Pick<FastifyInstance, 'config' | 'db' | 'registration' | 'secrets'>;

/** Registers the routes inside the auth routes' scope; answers whether a password may sign `user` in. */
export function oidcRoutes(app: FastifyInstance, { config, db, registration, secrets }: Parts, deps: Deps) {
  const provider = config.oidc ? createOidcProvider(config.oidc, secrets.jwtSecret) : null;
  const passwordsOff = () => `Вход по паролю отключён администратором. Войдите через «${provider?.name}»`;

  const passwordsClosed = async () => !signInOptions(config, await readSettings(db)).passwords;

  const redirectUri = (req: FastifyRequest) =>
    `${config.publicUrl ?? `${req.protocol}://${req.host}`}/api/auth/oidc/callback`;

  function tripCookie(req: FastifyRequest, value: string, maxAge: number): string {
    const attributes = [`Path=/api/auth/oidc`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`];
    if (req.protocol === 'https') attributes.push('Secure');
    return `${TRIP_COOKIE}=${value}; ${attributes.join('; ')}`;
  }

  function tripOf(req: FastifyRequest): string | null {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [name, value] = part.trim().split('=', 2);
      if (name === TRIP_COOKIE && value) return value;
    }
    return null;
  }

  function need() {
    if (!provider) throw notFound('Вход через организацию не настроен');
    return provider;
  }

  app.get('/api/auth/oidc/start', async (req, reply: FastifyReply) => {
    const { url, trip } = await need().start(redirectUri(req));
    reply.header('set-cookie', tripCookie(req, trip, OIDC_ROUND_TRIP_SEC));
    return reply.redirect(url, 303);
  });

  // The page finishes the sign-in: it shows what happens and keeps the tokens (the same as after a password).
  app.get('/api/auth/oidc/callback', async (req, reply) => {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    return reply.redirect(`${OIDC_PAGE}${query}`, 303);
  });

  contractRoute(app, 'oidcComplete', async ({ body, req, reply }) => {
    const oidc = need();
    // One use whatever the outcome: a second answer for the same trip is refused.
    reply.header('set-cookie', tripCookie(req, '', 0));
    const person = await oidc.finish(redirectUri(req), body.callback, tripOf(req));
    const linked = await linkedAccount(person);
    if (linked) {
      if (linked.deactivated_at) throw forbidden(ACCOUNT_DEACTIVATED);
      return { signedIn: await deps.issueSession(linked, req), pending: null };
    }
    const { registration: mode } = await readSettings(db);
    const first = await firstAccountFree(db);
    return {
      signedIn: null,
      pending: {
        pendingLink: await oidc.pendingLink(person),
        displayName: person.displayName ?? person.preferredUsername ?? '',
        canCreate: first || mode !== 'closed',
        needsInvite: !first && mode === 'invites',
      },
    };
  });

  contractRoute(app, 'oidcCreate', async ({ body, req }) => {
    const oidc = need();
    const person = await oidc.pendingPerson(body.pendingLink);
    if (await linkedAccount(person)) throw conflict(PERSON_LINKED);
    // Closed or invite-only registration refuses here, as it refuses a password's registration.
    const giveBack = await registration.admit(body.inviteCode);
    let userId: string;
    try {
      const username = await accountUsername(db, person.preferredUsername);
      const displayName = (person.displayName ?? username).slice(0, 64);
      // No password: '' matches none (passwords.ts); an administrator's reset link can give one later.
      userId = (await deps.createAccount({ username, displayName }, username.toLowerCase(), '')).user.id;
    } catch (err) {
      await giveBack();
      throw err;
    }
    await link(person, userId);
    return deps.issueSession(await account(userId), req);
  });

  contractRoute(app, 'oidcLink', async ({ body, req }) => {
    const oidc = need();
    const person = await oidc.pendingPerson(body.pendingLink);
    // The password proves the account is theirs; then the link is made and they are signed in. Linking is how a
    // member reaches the provider, so it works even while password sign-in is off.
    const user = await deps.checkPassword(body.username, body.password, req, []);
    if (user.deactivated_at) throw forbidden(ACCOUNT_DEACTIVATED);
    // A password alone must not open an account that asks for more: linking would sign in past its second factor.
    if (await deps.hasSecondFactor(user.id)) throw forbidden(LINK_NEEDS_SECOND_FACTOR);
    await link(person, user.id);
    return deps.issueSession(user, req);
  });

  contractRoute(app, 'signInMethods', async ({ userId }) => {
    const user = await account(userId);
    const linked =
      provider &&
      (await db
        .selectFrom('oidc_links')
        .select('subject')
        .where('user_id', '=', userId)
        .where('issuer', '=', provider.issuer)
        .executeTakeFirst());
    return { password: user.password_hash !== '', provider: linked ? (provider?.name ?? null) : null };
  });

  async function account(id: string): Promise<User> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** The live account linked to the provider's person; a link to a deleted account is dropped. */
  async function linkedAccount(person: OidcPerson): Promise<User | null> {
    const row = await db
      .selectFrom('oidc_links as l')
      .innerJoin('users as u', 'u.id', 'l.user_id')
      .selectAll('u')
      .where('l.issuer', '=', person.issuer)
      .where('l.subject', '=', person.subject)
      .executeTakeFirst();
    if (!row) return null;
    if (row.deleted_at === null) return row;
    await db
      .deleteFrom('oidc_links')
      .where('issuer', '=', person.issuer)
      .where('subject', '=', person.subject)
      .execute();
    return null;
  }

  async function link(person: OidcPerson, userId: string): Promise<void> {
    const hasOne = await db
      .selectFrom('oidc_links')
      .select('subject')
      .where('user_id', '=', userId)
      .where('issuer', '=', person.issuer)
      .executeTakeFirst();
    if (hasOne) throw conflict(hasOne.subject === person.subject ? PERSON_LINKED : ACCOUNT_LINKED);
    try {
      await db
        .insertInto('oidc_links')
        .values({
          issuer: person.issuer,
          subject: person.subject,
          user_id: userId,
          created_at: new Date(app.clock.now()).toISOString(),
        })
        .execute();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Linked meanwhile by a concurrent request of the same person.
      throw conflict(PERSON_LINKED);
    }
  }

  return {
    /** Refuses a password sign-in of a member while password sign-in is off. */
    async passwordSignInAllowed(user: User): Promise<void> {
      if (user.role !== 'admin' && (await passwordsClosed())) throw forbidden(passwordsOff());
    },
    /** Refuses registration with a password while password sign-in is off (the first account excepted). */
    async passwordRegistrationAllowed(): Promise<void> {
      if ((await passwordsClosed()) && !(await firstAccountFree(db))) throw forbidden(passwordsOff());
    },
  };
}

/**
 * What the sign-in page offers (GET /api/registration). Password sign-in is off only while there is a provider to
 * use instead: switched off with none configured, it changes nothing.
 */
export function signInOptions(config: Config, settings: ServerSettings): SignInOptions {
  return { provider: config.oidc?.name ?? null, passwords: !config.oidc || settings.passwordSignIn };
}
