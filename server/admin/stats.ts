// The server's figures for «Администрирование» and `npm run admin -- stats`.
import type { Database } from '../db/database';

export async function serverStats(db: Database, now: number = Date.now()) {
  const count = (n: unknown) => Number(n ?? 0);
  const users = await db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('deactivated_at', 'is not', null).then(1).else(0).end()).as('deactivated'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('role', '=', 'admin'), eb('deactivated_at', 'is', null)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('admins'),
    ])
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  const messages = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('deleted_at', 'is', null)
    .where('type', '!=', 'SYSTEM')
    .executeTakeFirstOrThrow();
  const uploads = await db
    .selectFrom('uploads')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
    .executeTakeFirstOrThrow();
  // Guests let in whose link still works: those who can be in a call now (docs/behaviour.md §10.40).
  const guests = await db
    .selectFrom('call_guests as g')
    .innerJoin('call_guest_links as l', 'l.code', 'g.link_code')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('g.state', '=', 'admitted')
    .where('l.revoked_at', 'is', null)
    .where('l.expires_at', '>', new Date(now).toISOString())
    .executeTakeFirstOrThrow();
  return {
    guests: count(guests.n),
    users: {
      total: count(users.total),
      active: count(users.total) - count(users.deactivated),
      deactivated: count(users.deactivated),
      admins: count(users.admins),
    },
    messages: count(messages.n),
    uploads: count(uploads.n),
    storageBytes: count(uploads.bytes),
  };
}
