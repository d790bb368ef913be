// The password check of the sensitive account routes (a password change, deletion, turning the second factor off),
// counted as a sign-in attempt from the request's address: the same lock as sign-in.
import { badRequest } from '../http/errors';
import type { Database } from '../db/database';
import { type CheckOutcome, lockedMessage, type SignInThrottle } from './login-throttle';
import { verifyPassword } from './passwords';

export function createPasswordCheck(db: Database, throttle: SignInThrottle) {
  /** Throws a 400 with `wrong` unless `password` is the account's; a locked counter answers its wait. */
  return async function checkPassword(userId: string, password: string, wrong: string, address: string): Promise<void> {
    const user = await db
      .selectFrom('users')
      .select(['username_lower', 'password_hash'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const admitted = await throttle.admit(user.username_lower, { address });
    if (!admitted.ok) throw badRequest(lockedMessage(admitted.waitSec));
    let outcome: CheckOutcome = 'refused';
    try {
      outcome = (await verifyPassword(user.password_hash, password)) ? 'succeeded' : 'failed';
    } finally {
      await throttle.finish(admitted.ticket, outcome);
    }
    if (outcome !== 'succeeded') throw badRequest(wrong);
  };
}
