// GET /api/search: the user's messages that match a query, newest first, in the conversations they are a
// member of when asking. Words are compared by stem (morphology.ts) in the index of search-index.ts.
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { SearchKind } from '../../src/contract/local-day';
import { requireMember } from '../conversations/membership';
import { countNativeStatements, sqliteHandle } from '../db/database';
import { contractRoute, type PreHandler } from '../http/contract-route';
import { badRequest, HttpError } from '../http/errors';
import { dayStartIso } from '../messages/message-at-date';
import { type MessageRow, toMessages } from '../messages/message-view';
import { notHiddenBy } from '../messages/not-hidden';
import { messageExcerpt } from './excerpt';
import { filterTerm, fts5Match, tsQuery } from './index-syntax';
import { type SeqSpan, seqSpan } from './message-days';
import { parseQuery } from './morphology';
import { drainBacklog, drainSqliteBacklog } from './search-index';

/** How often the backlog is indexed even when nobody searches, so a search rarely has any to do. */
/** The background drain's period: a search finds a message within this (and a search drains first anyway). */
const DRAIN_EVERY_MS = 500;

export interface Filter {
  userId: string;
  conversationId: string | undefined;
  beforeSeq: number | undefined;
  limit: number;
  /** «от:» */
  senderId: string | undefined;
  kind: SearchKind | undefined;
  /** «Дата»: created_at in [since, until), ISO. */
  since: string | undefined;
  until: string | undefined;
  /** The seqs the date range's days hold (message-days.ts), when there is a range. */
  span?: { first: number; last: number };
}

const optional = (on: boolean, fragment: ReturnType<typeof sql>) => (on ? fragment : sql``);

const TYPE_OF_KIND = { photo: 'IMAGE', file: 'FILE', voice: 'VOICE' } as const;

/**
 * The filters other than the chat: conditions on the message row the index walk has already reached by its
 * primary key (seq), so they cost no other index and no scan (tests/server/search-filters.test.ts EXPLAINs it).
 */
function rowFilters(f: Filter) {
  const kind =
    f.kind === undefined
      ? sql``
      : f.kind === 'link'
        ? sql`AND (m.content LIKE '%http://%' OR m.content LIKE '%https://%' OR m.content LIKE '%www.%')`
        : sql`AND m.type = ${TYPE_OF_KIND[f.kind]}`;
  return sql`${optional(f.senderId !== undefined, sql`AND m.sender_id = ${f.senderId}`)}
      ${kind}
      ${optional(f.since !== undefined, sql`AND m.created_at >= ${f.since}`)}
      ${optional(f.until !== undefined, sql`AND m.created_at < ${f.until}`)}`;
}

/**
 * What the user may read: messages of the conversations they are a member of, from when they can see them, not
 * those they hid for themselves («Удалить у меня»), and only the chat chosen if one is.
 */
function readable(f: Filter) {
  return sql`AND EXISTS (SELECT 1 FROM conversation_members cm WHERE cm.conversation_id = m.conversation_id AND cm.user_id = ${f.userId} AND (cm.visible_from_seq = 0 OR m.seq > cm.visible_from_seq))
      AND ${notHiddenBy(f.userId, 'm.id')}
      ${optional(f.conversationId !== undefined, sql`AND m.conversation_id = ${f.conversationId}`)}`;
}

/**
 * The filters the index holds as terms of each message (index-syntax.ts filterTerms): the chat, the sender and a kind
 * other than links, all of them required. With them in the match the index intersects them with the words; the row
 * conditions stay, exact.
 */
function indexedFilters(f: Filter): string[] {
  const all: string[] = [];
  if (f.conversationId !== undefined) all.push(filterTerm('c', f.conversationId));
  if (f.senderId !== undefined) all.push(filterTerm('s', f.senderId));
  if (f.kind !== undefined && f.kind !== 'link') all.push(filterTerm('t', TYPE_OF_KIND[f.kind]));
  return all;
}

/** A date range's span of seqs, so the walk newest first starts at its last day (`seq` names the walked column). */
const spanOf = (f: Filter, seq: string) =>
  f.span ? sql`AND ${sql.raw(seq)} BETWEEN ${f.span.first} AND ${f.span.last}` : sql``;

/** FTS5 walks the matches newest first (rowid = seq, descending) and each is checked against the user's memberships. */
function sqliteMatches(match: string, f: Filter) {
  return sql<MessageRow>`
    SELECT m.* FROM message_search s CROSS JOIN messages m
    WHERE message_search MATCH ${match} AND m.seq = s.rowid AND m.deleted_at IS NULL
      ${readable(f)}
      ${optional(f.beforeSeq !== undefined, sql`AND s.rowid < ${f.beforeSeq}`)}
      ${spanOf(f, 's.rowid')}
      ${rowFilters(f)}
    ORDER BY s.rowid DESC LIMIT ${f.limit}`;
}

function postgresMatches(query: string, f: Filter) {
  return sql<MessageRow>`
    SELECT m.* FROM message_search s JOIN messages m ON m.seq = s.seq
    WHERE s.terms @@ ${query}::tsquery AND m.deleted_at IS NULL
      ${readable(f)}
      ${optional(f.beforeSeq !== undefined, sql`AND s.seq < ${f.beforeSeq}`)}
      ${spanOf(f, 's.seq')}
      ${rowFilters(f)}
    ORDER BY s.seq DESC LIMIT ${f.limit}`;
}

/**
 * No words, only filters («от:» Анна, «Тип»: фото, a date): the messages themselves, newest first, read as a match
 * is. Those the index never holds are left out too: service lines and secret chats' ciphertext.
 */
function unworded(f: Filter) {
  return sql<MessageRow>`
    SELECT m.* FROM messages m
    WHERE m.deleted_at IS NULL AND m.type NOT IN ('SYSTEM', 'ENCRYPTED')
      ${readable(f)}
      ${optional(f.beforeSeq !== undefined, sql`AND m.seq < ${f.beforeSeq}`)}
      ${spanOf(f, 'm.seq')}
      ${rowFilters(f)}
    ORDER BY m.seq DESC LIMIT ${f.limit}`;
}

/** The filters that narrow a search without words (the chat alone does not: that is the chat itself). */
export const narrows = (f: Pick<Filter, 'senderId' | 'kind' | 'since' | 'until'>) =>
  f.senderId !== undefined || f.kind !== undefined || f.since !== undefined || f.until !== undefined;

/** The statement a search runs (exported so a test can EXPLAIN it): by the word index, or without words by filters. */
export function searchStatement(postgres: boolean, q: string, f: Filter) {
  const parts = parseQuery(q);
  if (parts.length === 0) return unworded(f);
  const all = indexedFilters(f);
  if (postgres) return postgresMatches([tsQuery(parts), ...all.map((t) => `'${t}'`)].join(' & '), f);
  return sqliteMatches([fts5Match(parts), ...all.map((t) => `"${t}"`)].join(' AND '), f);
}

export const searchRoutes = fp(
  async (app) => {
    const { config, db, dialect, metrics } = app;
    // Each search runs the index and reads messages: a per-user budget keeps one account from loading the server
    // (or sweeping everything it can read) with a script. The limiter is this plugin's own.
    await app.register(rateLimit, { global: false });
    const searches = app.createRateLimit({
      max: config.searchPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => `search:${req.userId ?? req.ip}`,
    });
    const limited: PreHandler = async (req, reply) => {
      const r = await searches(req);
      if (r.isAllowed || !r.isExceeded) return;
      reply.header('retry-after', String(r.ttlInSeconds));
      throw new HttpError(429, `Слишком много поисков. Повторите через ${r.ttlInSeconds} с.`);
    };
    const postgres = dialect === 'postgres';
    // This plugin is encapsulated: the hook sees its searches only. Answered searches, refusals not counted.
    app.addHook('onResponse', (_req, reply, done) => {
      if (reply.statusCode < 400) metrics.searchDuration.observe(reply.elapsedTime / 1000);
      done();
    });

    let draining: Promise<unknown> | null = null;
    /** Indexes the backlog; a call during a drain waits for it and drains again (rows committed meanwhile). */
    const drainOnce = (background: boolean): Promise<unknown> => {
      const file = sqliteHandle(db);
      if (!file) return db.transaction().execute((trx) => drainBacklog(trx, { background }));
      // Native and synchronous, under Kysely's lock on the single connection, one slice at a time: between slices
      // the lock and the event loop go to whatever waits (sends). A request's statements are counted.
      return (async () => {
        for (;;) {
          const slice = await db.connection().execute(async () => drainSqliteBacklog(file));
          if (!background) countNativeStatements(db, slice.statements);
          if (!slice.more) return;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
    };
    const drain = async (background = false): Promise<void> => {
      while (draining) await draining.catch(() => {});
      draining = drainOnce(background);
      try {
        await draining;
      } finally {
        draining = null;
      }
    };
    const timer = setInterval(
      () => drain(true).catch((err) => app.log.warn({ err }, 'search backlog')),
      DRAIN_EVERY_MS,
    );
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await draining?.catch(() => {});
    });

    const seqOf = async (messageId: string) =>
      (await db.selectFrom('messages').select('seq').where('id', '=', messageId).executeTakeFirst())?.seq;

    contractRoute(
      app,
      'search',
      async ({ userId, query }) => {
        if (query.conversationId) await requireMember(db, query.conversationId, userId);
        let beforeSeq: number | undefined;
        if (query.before) {
          beforeSeq = await seqOf(query.before);
          if (beforeSeq === undefined) throw badRequest('before: сообщение не найдено');
        }
        const parts = parseQuery(query.q);
        const filter: Filter = {
          userId,
          conversationId: query.conversationId,
          beforeSeq,
          limit: query.limit + 1,
          senderId: query.from,
          kind: query.kind as SearchKind | undefined,
          since: query.since ? dayStartIso(query.since, query.tz) : undefined,
          // «по 5 мая» takes in the whole of 5 May.
          until: query.until ? dayStartIso(query.until, query.tz, 1) : undefined,
        };
        // Only punctuation and no filter to list by: nothing can match.
        if (parts.length === 0 && !narrows(filter)) return { results: [], nextBefore: null };
        const dated = filter.since !== undefined || filter.until !== undefined;
        // The index, and the days' spans, hold every message committed before the drain.
        if (parts.length > 0 || dated) await drain();
        if (dated) {
          const span: SeqSpan = await seqSpan(db, filter.since, filter.until);
          if (!span) return { results: [], nextBefore: null };
          filter.span = span;
        }
        const { rows } = await searchStatement(postgres, query.q, filter).execute(db);
        const page = rows.slice(0, query.limit);
        const messages = await toMessages(db, page, userId);
        return {
          results: messages.map((message) => ({
            conversationId: message.conversationId,
            message,
            ...messageExcerpt(
              message.content,
              message.attachments.flatMap((a) => (a.name ? [a.name] : [])),
              parts,
            ),
          })),
          nextBefore: rows.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
        };
      },
      { preHandler: limited },
    );
  },
  {
    name: 'search-routes',
    encapsulate: true,
    decorators: { fastify: ['config', 'db', 'dialect', 'metrics', 'authenticate'] },
    dependencies: ['base', 'authentication', 'metrics'],
  },
);
