// Failed sign-ins are counted per username in the database (so several server processes agree);
// past the limit the username is locked for a while, whatever password is tried.
import { type Clock, systemClock } from '../clock';
import type { Database } from '../db/database';

export interface ThrottleOptions {
  maxFailures: number;
  lockSec: number;
}

/** Seconds left on the lock, or 0 when sign-in may be tried. */
export async function lockedFor(db: Database, usernameLower: string, clock: Clock = systemClock): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .selectAll()
    .where('username_lower', '=', usernameLower)
    .executeTakeFirst();
  if (!row?.locked_until) return 0;
  const left = Date.parse(row.locked_until) - clock.now();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

export async function recordFailure(
  db: Database,
  usernameLower: string,
  o: ThrottleOptions,
  clock: Clock = systemClock,
): Promise<void> {
  const now = clock.now();
  const row = await db
    .selectFrom('login_failures')
    .selectAll()
    .where('username_lower', '=', usernameLower)
    .executeTakeFirst();
  const windowExpired = row && Date.parse(row.first_failure_at) + o.lockSec * 1000 < now;
  const failures = !row || windowExpired ? 1 : row.failures + 1;
  const values = {
    failures,
    first_failure_at: !row || windowExpired ? new Date(now).toISOString() : row.first_failure_at,
    locked_until: failures >= o.maxFailures ? new Date(now + o.lockSec * 1000).toISOString() : null,
  };
  await db
    .insertInto('login_failures')
    .values({ username_lower: usernameLower, ...values })
    .onConflict((oc) => oc.column('username_lower').doUpdateSet(values))
    .execute();
}

export async function clearFailures(db: Database, usernameLower: string): Promise<void> {
  await db.deleteFrom('login_failures').where('username_lower', '=', usernameLower).execute();
}
