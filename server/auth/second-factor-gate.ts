// The administrator's «Двухэтапная проверка обязательна» enforced on the server (docs/administration.md): a person it
// applies to who has no second factor yet (no authenticator app, no passkey) is signed in, but their session reaches
// only what setting one up needs (the second factor's and passkeys' routes, their own user, their sign-ins) until
// they have one; every other route and the socket answer 403. The setting is read at most every few seconds per
// process; an account found to have a second factor (or not to need one) is not asked again for a while, while one
// still setting up is asked on every request, so a set-up counts at once on every process.
import type { TwoFactorRequirement } from '../../src/contract/administration';
import { type RouteName, routes } from '../../src/contract/routes';
import { readSettings } from '../admin/server-settings';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { databaseFailure } from '../db/unavailable';

export const SETUP_REQUIRED =
  'Администратор сервера требует двухэтапную проверку. Включите её в «Настройки» → «Безопасность», чтобы продолжить';

/** What a session waiting for its set-up may reach. */
const OPEN_WHILE_SETTING_UP: RouteName[] = [
  'me',
  'twoFactor',
  'twoFactorBegin',
  'twoFactorConfirm',
  'passkeys',
  'passkeyRegisterOptions',
  'passkeyRegister',
  'sessions',
  'endSession',
  'endOtherSessions',
  'signInMethods',
];
const OPEN_PATHS = new Set(OPEN_WHILE_SETTING_UP.map((name) => `/api${routes[name].path}`));

const SETTING_TTL_MS = 5_000;
const CLEARED_TTL_MS = 30_000;
const CLEARED_MAX = 50_000;

/** Whether the server's requirement applies to an account of this role. */
export function requiresTwoFactor(setting: TwoFactorRequirement, role: string): boolean {
  return setting === 'everyone' || (setting === 'admins' && role === 'admin');
}

export function createSecondFactorGate(db: Database, clock: Clock) {
  let setting: { readAt: number; value: TwoFactorRequirement } | null = null;
  const cleared = new Map<string, number>();

  async function requirement(): Promise<TwoFactorRequirement> {
    if (!setting || clock.now() - setting.readAt > SETTING_TTL_MS) {
      try {
        setting = { readAt: clock.now(), value: (await readSettings(db)).twoFactorRequired };
      } catch (err) {
        // While the database is away the last setting read stands (nothing that needs the database is served
        // meanwhile), so a device reconnecting its socket during an outage is not refused for a stale cache.
        if (!setting || !databaseFailure(err)) throw err;
      }
    }
    return setting.value;
  }

  return {
    /** Reads the setting again at the next request (it was just changed here). */
    forget(): void {
      setting = null;
      cleared.clear();
    },

    /** Whether a route (its path as registered) stays open while the set-up is pending. */
    open: (routePath: string | undefined) => routePath !== undefined && OPEN_PATHS.has(routePath),

    /** Whether the account must set up a second factor before anything else. */
    async mustSetUp(userId: string): Promise<boolean> {
      const required = await requirement();
      if (required === 'nobody') return false;
      if ((cleared.get(userId) ?? 0) > clock.now()) return false;
      const row = await db
        .selectFrom('users')
        .select(['role'])
        .select(({ exists, selectFrom }) => [
          exists(
            selectFrom('two_factor')
              .select('user_id')
              .whereRef('two_factor.user_id', '=', 'users.id')
              .where('secret', 'is not', null),
          ).as('totp'),
          exists(selectFrom('passkeys').select('id').whereRef('passkeys.user_id', '=', 'users.id')).as('passkey'),
        ])
        .where('id', '=', userId)
        .executeTakeFirst();
      const must = row !== undefined && requiresTwoFactor(required, row.role) && !row.totp && !row.passkey;
      if (!must) {
        if (cleared.size >= CLEARED_MAX) cleared.clear();
        cleared.set(userId, clock.now() + CLEARED_TTL_MS);
      }
      return must;
    },
  };
}

export type SecondFactorGate = ReturnType<typeof createSecondFactorGate>;
