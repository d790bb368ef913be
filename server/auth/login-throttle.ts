// Password guessing is limited on counters in the database (so every server process agrees), in the spirit of
// OWASP ASVS 6.3 (docs/behaviour.md §10.7): the (username, address) pair that guesses, the address whatever names it
// tries, and the whole server. A counter past its limit locks only what it counts, so nobody can lock a person out
// of an account from somewhere else: the owner, proving the password from another address, still gets in.
//
// The whole server's counter never refuses (one script could otherwise lock everybody out): past its limit, browsers
// it does not know are slowed, a delay growing with the failures up to GLOBAL_DELAY_MAX_MS. A browser carrying a
// valid device mark for the account (device-marks.ts, OWASP's «device cookie») is counted on its mark alone: neither
// the address nor the whole server holds it back, and the mark locks after `device.max` failures.
//
// Each check holds a slot on every counter before the password is verified (one atomic upsert per counter), and
// a slot counts like a failure until its answer is known: parallel guesses cannot all pass before the lock lands.
import { sql } from 'kysely';
import { type Clock, systemClock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/database';

export interface Limit {
  /** Failures (with the checks still running) allowed within the window. */
  max: number;
  windowSec: number;
  lockSec: number;
}

export interface ThrottleLimits {
  pair: Limit;
  address: Limit;
  /** Never locks: `max` failures a minute is where slowing starts. */
  global: Limit;
  device: Limit;
}

/** The longest an unknown browser's sign-in is held back while the whole server is past its limit. */
export const GLOBAL_DELAY_MAX_MS = 2_500;

/** Past the server-wide limit: 100 ms at the limit, growing with the failures beyond it, capped. */
export function slowdownMs(globalFailures: number, max: number): number {
  if (globalFailures < max) return 0;
  return Math.min(GLOBAL_DELAY_MAX_MS, 100 + Math.round((GLOBAL_DELAY_MAX_MS * (globalFailures - max)) / max));
}

/** The whole server's counter runs in one-minute windows: a burst is cut short, and sign-in comes back soon after. */
export const GLOBAL_WINDOW_SEC = 60;

export function throttleLimits(config: Config): ThrottleLimits {
  const perName = { windowSec: config.loginLockSec, lockSec: config.loginLockSec };
  return {
    pair: { max: config.loginMaxFailures, ...perName },
    address: { max: config.loginMaxFailuresPerAddress, ...perName },
    global: { max: config.loginMaxFailuresGlobal, windowSec: GLOBAL_WINDOW_SEC, lockSec: GLOBAL_WINDOW_SEC },
    device: { max: config.loginMaxFailuresPerDevice, ...perName },
  };
}

type Scope = keyof ThrottleLimits;
interface Counter {
  scope: Scope;
  key: string;
  /** Set on pair counters: a password reset clears them. */
  usernameLower: string | null;
}

/** The slots one password check holds, handed back with `finish`. */
export interface Ticket {
  counters: Counter[];
}

/** How a check ended: `refused` (not verified, or a server fault) counts neither way. */
export type CheckOutcome = 'refused' | 'failed' | 'succeeded';

/** `delayMs`: how long to hold the answer back (the server is past its limit and the browser unknown). */
export type Admission = { ok: true; ticket: Ticket; delayMs: number } | { ok: false; waitSec: number };

/** Who is signing in: a browser with a valid device mark for the account (its nonce), or one seen by address. */
export type Signer = { deviceNonce: string } | { address: string };

const countersOf = (usernameLower: string, who: Signer): Counter[] =>
  'deviceNonce' in who
    ? [{ scope: 'device', key: `device\n${who.deviceNonce}`, usernameLower }]
    : [
        { scope: 'pair', key: `pair\n${who.address}\n${usernameLower}`, usernameLower },
        { scope: 'address', key: `address\n${who.address}`, usernameLower: null },
        { scope: 'global', key: 'global', usernameLower: null },
      ];

/** A limit no counter reaches. */
const NEVER = 2 ** 31 - 1;

/** The whole server's counter counts failures but never locks. */
const locks = (scope: Scope) => scope !== 'global';

export function createSignInThrottle(db: Database, limits: ThrottleLimits, clock: Clock = systemClock) {
  const iso = (ms: number) => new Date(ms).toISOString();

  /** Takes a slot on one counter (a new window once the last one, or its lock, is over); returns the row after. */
  async function take(c: Counter, now: number) {
    const l = limits[c.scope];
    const at = iso(now);
    const windowStart = iso(now - l.windowSec * 1000);
    const expired = sql`((sign_in_throttle.locked_until IS NULL AND sign_in_throttle.window_started_at <= ${windowStart})
      OR (sign_in_throttle.locked_until IS NOT NULL AND sign_in_throttle.locked_until <= ${at}))`;
    const { rows } = await sql<{ failures: number; pending: number; locked_until: string | null }>`
      INSERT INTO sign_in_throttle (key, username_lower, failures, pending, window_started_at, locked_until)
      VALUES (${c.key}, ${c.usernameLower}, 0, 1, ${at}, NULL)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN ${expired} THEN 0 ELSE sign_in_throttle.failures END,
        pending = CASE WHEN sign_in_throttle.locked_until > ${at} THEN sign_in_throttle.pending
          WHEN ${expired} THEN 1 ELSE sign_in_throttle.pending + 1 END,
        window_started_at = CASE WHEN ${expired} THEN ${at} ELSE sign_in_throttle.window_started_at END,
        locked_until = CASE WHEN ${expired} THEN NULL ELSE sign_in_throttle.locked_until END
      RETURNING failures, pending, locked_until`.execute(db);
    const row = rows[0] as { failures: number; pending: number; locked_until: string | null };
    return { failures: Number(row.failures), pending: Number(row.pending), lockedUntil: row.locked_until };
  }

  /** Gives a slot back: the check was refused before verifying, or it ended one way or the other. */
  async function release(c: Counter, outcome: CheckOutcome, now: number): Promise<void> {
    const l = limits[c.scope];
    const pending = sql`CASE WHEN pending > 0 THEN pending - 1 ELSE 0 END`;
    if (outcome === 'failed') {
      // The failure that reaches the limit locks the counter for lockSec from now.
      await sql`UPDATE sign_in_throttle SET pending = ${pending}, failures = failures + 1,
        locked_until = CASE WHEN failures + 1 >= ${locks(c.scope) ? l.max : NEVER} AND (locked_until IS NULL OR locked_until <= ${iso(now)})
          THEN ${iso(now + l.lockSec * 1000)} ELSE locked_until END
        WHERE key = ${c.key}`.execute(db);
    } else if (outcome === 'succeeded' && (c.scope === 'pair' || c.scope === 'device')) {
      // The right password from there clears that pair's failures (a lock already landed stays).
      await sql`UPDATE sign_in_throttle SET pending = ${pending}, failures = 0 WHERE key = ${c.key}`.execute(db);
    } else {
      await sql`UPDATE sign_in_throttle SET pending = ${pending} WHERE key = ${c.key}`.execute(db);
    }
  }

  const throttle = {
    /** Holds a slot on every counter, or says how long to wait (nothing held then). */
    async admit(usernameLower: string, who: Signer): Promise<Admission> {
      const now = clock.now();
      const held: Counter[] = [];
      let waitSec = 0;
      let delayMs = 0;
      for (const c of countersOf(usernameLower, who)) {
        const row = await take(c, now);
        if (!locks(c.scope)) {
          held.push(c);
          delayMs = slowdownMs(row.failures, limits[c.scope].max);
          continue;
        }
        const lockedLeft = row.lockedUntil ? Date.parse(row.lockedUntil) - now : 0;
        if (lockedLeft > 0) {
          waitSec = Math.ceil(lockedLeft / 1000);
          break;
        }
        held.push(c);
        if (row.failures + row.pending > limits[c.scope].max) {
          // Full of checks still running: one of them may yet lock it; ask to come back in a minute.
          waitSec = 60;
          break;
        }
      }
      if (waitSec === 0) return { ok: true, ticket: { counters: held }, delayMs };
      for (const c of held) await release(c, 'refused', now);
      return { ok: false, waitSec };
    },

    /** Gives the check's slots back: `failed` counts (and may lock), `succeeded` clears the pair's failures. */
    async finish(ticket: Ticket, outcome: CheckOutcome): Promise<void> {
      const now = clock.now();
      for (const c of ticket.counters) await release(c, outcome, now);
    },

    /** Deletes counters nobody holds whose window and lock are over; returns how many. */
    async sweep(): Promise<number> {
      const now = clock.now();
      const longest = Math.max(...Object.values(limits).map((l) => l.windowSec));
      const res = await db
        .deleteFrom('sign_in_throttle')
        .where('pending', '=', 0)
        .where('window_started_at', '<=', iso(now - longest * 1000))
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', iso(now))]))
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
  return throttle;
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

/** «Слишком много неудачных попыток. Повторите через {n} мин.» */
export const lockedMessage = (waitSec: number) =>
  `Слишком много неудачных попыток. Повторите через ${Math.max(1, Math.ceil(waitSec / 60))} мин.`;
