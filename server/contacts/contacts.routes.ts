import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Contact } from '../../src/contract/entities';
import { isUniqueViolation } from '../db/database';
import type { ContactsTable } from '../db/schema';
import { contractRoute, type PreHandler } from '../http/contract-route';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../http/errors';
import { toPublicUser } from '../users/user-view';

const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);
const NOT_FOUND = 'Запрос не найден';
const EBLID = /^\d{4}$/;

/**
 * Every way of resolving an EBLID (search, and adding by a four-digit identifier) draws from one per-user
 * budget, so sweeping the 10,000 codes takes hours rather than seconds whichever route is used. Counted before
 * validation: malformed searches count too.
 */
function codeLookupLimit(app: FastifyInstance, perMinute: number): { search: PreHandler; add: PreHandler } {
  const lookups = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => `code-lookup:${req.userId ?? req.ip}`,
  });
  const count = async (req: FastifyRequest, reply: FastifyReply) => {
    const r = await lookups(req);
    if (r.isAllowed || !r.isExceeded) return;
    reply.header('retry-after', String(r.ttlInSeconds));
    throw new HttpError(429, `Слишком много поисков по EBLID. Повторите через ${r.ttlInSeconds} с.`);
  };
  return {
    search: count,
    // Adding by username or email is not a code lookup.
    add: async (req, reply) => {
      const identifier = (req.body as { identifier?: unknown } | undefined)?.identifier;
      if (typeof identifier !== 'string' || !EBLID.test(identifier.trim())) return;
      await count(req, reply);
    },
  };
}

/** Friend requests and the contact list. */
export const contactsRoutes = fp(
  async (app) => {
    const { blocks, config, db, realtime } = app;
    const online = (id: string) => realtime.isOnline(id);
    // The rate limiter is this plugin's own (no global limit): its hooks run on the two routes below only.
    await app.register(rateLimit, { global: false });
    const limit = codeLookupLimit(app, config.codeSearchPerMinute);

    /** The contact as `viewerId` sees it. */
    async function view(row: ContactsTable, viewerId: string): Promise<Contact> {
      const friendId = row.requester_id === viewerId ? row.addressee_id : row.requester_id;
      const friend = await db.selectFrom('users').selectAll().where('id', '=', friendId).executeTakeFirstOrThrow();
      return {
        id: row.id,
        status: row.status,
        direction: row.requester_id === viewerId ? 'outgoing' : 'incoming',
        friend: toPublicUser(friend, online),
      };
    }

    async function loadOwn(contactId: string, userId: string): Promise<ContactsTable> {
      const row = await db.selectFrom('contacts').selectAll().where('id', '=', contactId).executeTakeFirst();
      // A stranger learns nothing about other people's requests: same answer as a missing one.
      if (!row || (row.requester_id !== userId && row.addressee_id !== userId)) throw notFound(NOT_FOUND);
      return row;
    }

    contractRoute(app, 'contacts', async ({ userId, query }) => {
      let q = db
        .selectFrom('contacts as c')
        .innerJoin('users as u', (j) =>
          j.on((eb) => eb.or([eb('u.id', '=', eb.ref('c.requester_id')), eb('u.id', '=', eb.ref('c.addressee_id'))])),
        )
        .where('u.id', '!=', userId)
        .selectAll('u')
        .select(['c.id as contact_id', 'c.status as contact_status', 'c.requester_id as contact_requester'])
        .where((eb) => eb.or([eb('c.requester_id', '=', userId), eb('c.addressee_id', '=', userId)]));
      if (query.filter === 'accepted') q = q.where('c.status', '=', 'ACCEPTED');
      if (query.filter === 'incoming') q = q.where('c.status', '=', 'PENDING').where('c.addressee_id', '=', userId);
      if (query.filter === 'outgoing') q = q.where('c.status', '=', 'PENDING').where('c.requester_id', '=', userId);
      const rows = await q.orderBy('u.display_name').execute();
      return {
        contacts: rows.map((r) => ({
          id: r.contact_id,
          status: r.contact_status,
          direction: r.contact_requester === userId ? ('outgoing' as const) : ('incoming' as const),
          friend: toPublicUser(r, online),
        })),
      };
    });

    contractRoute(
      app,
      'contactSearch',
      async ({ userId, query }) => {
        const rows = await db
          .selectFrom('users')
          .selectAll()
          .where('eblid', '=', query.code)
          .where('id', '!=', userId)
          .where('deleted_at', 'is', null)
          .execute();
        // Whoever blocked the searcher cannot be found by them.
        return { results: rows.filter((r) => !blocks.has(r.id, userId)).map((r) => toPublicUser(r, online)) };
      },
      { preHandler: limit.search },
    );

    contractRoute(
      app,
      'contactAdd',
      async ({ userId, body }) => {
        const id = body.identifier.trim();
        const lower = id.toLowerCase();
        const asUsername = lower.replace(/^@/, '');
        // A deleted account is nobody to add (its username and EBLID are held until they are released).
        let q = db.selectFrom('users').selectAll().where('deleted_at', 'is', null);
        if (EBLID.test(id)) q = q.where('eblid', '=', id);
        else if (asUsername.includes('@')) q = q.where('email_lower', '=', lower);
        else q = q.where('username_lower', '=', asUsername);
        const target = await q.executeTakeFirst();
        // To someone who blocked them, the requester is asking for an unknown user.
        if (!target || blocks.has(target.id, userId)) throw notFound('Пользователь не найден');
        if (target.id === userId) throw badRequest('Нельзя добавить в друзья самого себя');

        const key = pairKey(userId, target.id);
        const existing = await db.selectFrom('contacts').selectAll().where('pair_key', '=', key).executeTakeFirst();
        if (existing?.status === 'ACCEPTED') throw conflict('Вы уже друзья');
        if (existing && existing.requester_id === userId) throw conflict('Запрос уже отправлен');
        if (existing) {
          // They already asked us: adding them back is accepting.
          return { contact: await accept(existing) };
        }
        const now = new Date().toISOString();
        const row: ContactsTable = {
          id: randomUUID(),
          requester_id: userId,
          addressee_id: target.id,
          pair_key: key,
          status: 'PENDING',
          created_at: now,
          updated_at: now,
        };
        try {
          await db.insertInto('contacts').values(row).execute();
        } catch (err) {
          if (isUniqueViolation(err)) throw conflict('Запрос уже отправлен');
          throw err;
        }
        realtime.toUser(target.id, 'contacts:request:new', { contact: await view(row, target.id) });
        return { contact: await view(row, userId) };
      },
      { preHandler: limit.add },
    );

    async function accept(row: ContactsTable): Promise<Contact> {
      const now = new Date().toISOString();
      await db.updateTable('contacts').set({ status: 'ACCEPTED', updated_at: now }).where('id', '=', row.id).execute();
      const accepted = { ...row, status: 'ACCEPTED' as const, updated_at: now };
      realtime.toUser(row.requester_id, 'contacts:request:accepted', {
        contact: await view(accepted, row.requester_id),
      });
      return view(accepted, row.addressee_id);
    }

    contractRoute(app, 'contactRespond', async ({ userId, body }) => {
      const row = await loadOwn(body.contactId, userId);
      if (row.status !== 'PENDING') throw conflict('Запрос уже принят');
      if (row.addressee_id !== userId) throw forbidden('Ответить на запрос может только получатель');
      if (body.action === 'accept') return { contact: await accept(row) };
      await db.deleteFrom('contacts').where('id', '=', row.id).execute();
      realtime.toUser(row.requester_id, 'contacts:removed', { contactId: row.id, userId });
      return { contact: null };
    });

    contractRoute(app, 'contactRemove', async ({ userId, body }) => {
      const row = await loadOwn(body.contactId, userId);
      // Either side removes a friend; a pending request may be withdrawn by its sender (the addressee rejects).
      if (row.status === 'PENDING' && row.requester_id !== userId) {
        throw forbidden('Входящий запрос можно только принять или отклонить');
      }
      await db.deleteFrom('contacts').where('id', '=', row.id).execute();
      const other = row.requester_id === userId ? row.addressee_id : row.requester_id;
      realtime.toUser(other, 'contacts:removed', { contactId: row.id, userId });
      return { ok: true as const };
    });
  },
  {
    name: 'contacts-routes',
    encapsulate: true,
    decorators: { fastify: ['blocks', 'config', 'db', 'realtime', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'blocks'],
  },
);
