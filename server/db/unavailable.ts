// A database that is down, stalled or out of space is not a fault of the request: its error becomes one of two
// refusals the client may retry later (docs/behaviour.md §10.22 Database outage). The raw errors come from pg (a
// reset or refused socket, a timeout, an administrator's shutdown), pg-pool (no connection in time) and SQLite
// (a lock held too long, a full disk); the central error handler, socket acknowledgements and the socket
// handshake all ask `databaseFailure` which of them an error is.
import { HttpError } from '../http/http-error';

export const DATABASE_UNAVAILABLE = 'База данных недоступна, повторите позже';
export const STORAGE_FULL = 'На сервере закончилось место, повторите позже';

/** 503: the database did not answer (down, unreachable, stalled, busy); nothing was changed that is not committed. */
export class DatabaseUnavailable extends HttpError {
  constructor(readonly cause: unknown) {
    super(503, DATABASE_UNAVAILABLE);
  }
}

/** 507: the disk under the database (or uploads) is full; writes are refused, reads go on. */
export class StorageFull extends HttpError {
  constructor(readonly cause: unknown) {
    super(507, STORAGE_FULL);
  }
}

/** Socket errors of a connection that is gone or never came: the database is unreachable, not the query wrong. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs for a server that is going away or not there yet: admin_shutdown, crash_shutdown,
 * cannot_connect_now (starting up, recovering), too_many_connections, query_canceled (statement_timeout ran
 * out), and class 08 (connection exception).
 */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** pg and pg-pool say these in words only (no code). */
const PG_MESSAGES = [
  'Connection terminated',
  'not queryable',
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

function classify(err: unknown, depth: number): HttpError | null {
  if (!err || typeof err !== 'object' || depth > 3) return null;
  if (err instanceof DatabaseUnavailable || err instanceof StorageFull) return err;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return new StorageFull(err);
    // SQLITE_BUSY and its extended codes: another connection held the lock past busy_timeout.
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return new DatabaseUnavailable(err);
    if (NETWORK_CODES.has(code) || PG_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
      return new DatabaseUnavailable(err);
    }
  }
  if (typeof message === 'string' && PG_MESSAGES.some((m) => message.includes(m))) return new DatabaseUnavailable(err);
  // A connect to several addresses (localhost: ::1 and 127.0.0.1) fails as one AggregateError. A `cause` is not
  // followed: another service's failure (an S3 write) may carry a socket error too, and is not the database's.
  const inner = (err as { errors?: unknown[] }).errors?.[0];
  return inner === undefined ? null : classify(inner, depth + 1);
}

/** The refusal for an error of an unavailable or full database, or null for any other error. */
export function databaseFailure(err: unknown): DatabaseUnavailable | StorageFull | null {
  return classify(err, 0) as DatabaseUnavailable | StorageFull | null;
}
