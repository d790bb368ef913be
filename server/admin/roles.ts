// Who administers the server: the role is read from the database on every admin request, so a demotion or
// deactivation takes effect at once on every process.
import type { Database } from '../db/database';
import { forbidden } from '../http/errors';

export const ADMINS_ONLY = 'Доступно только администраторам';

export async function isAdmin(db: Database, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('role')
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .where('deactivated_at', 'is', null)
    .executeTakeFirst();
  return row?.role === 'admin';
}

export async function requireAdmin(db: Database, userId: string): Promise<void> {
  if (!(await isAdmin(db, userId))) throw forbidden(ADMINS_ONLY);
}

/** Whether the administrator's place is still free: the next account to register takes it (GET /api/registration). */
export async function firstAccountFree(db: Database): Promise<boolean> {
  const row = await db.selectFrom('server_settings').select('key').where('key', '=', 'firstAdmin').executeTakeFirst();
  return row === undefined;
}

/**
 * The first account of an empty server becomes its administrator: one row in server_settings marks the place
 * taken (its primary key settles two first registrations racing), so later accounts are members.
 */
export async function claimFirstAdmin(db: Database, userId: string): Promise<boolean> {
  const res = await db
    .insertInto('server_settings')
    .values({ key: 'firstAdmin', value: JSON.stringify(userId) })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  await db.updateTable('users').set({ role: 'admin' }).where('id', '=', userId).execute();
  return true;
}

/** Live administrators other than `exceptId`: none left means the change would leave the server without one. */
export async function otherActiveAdmins(db: Database, exceptId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('deleted_at', 'is', null)
    .where('deactivated_at', 'is', null)
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
