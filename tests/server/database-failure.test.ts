// Which errors count as the database being away (503) or full (507), and which stay faults or the request's own:
// the error shapes pg, pg-pool, Node's sockets and better-sqlite3 produce. The real outages are in
// db-outage.test.ts (PostgreSQL behind a proxy) and sqlite-storage.test.ts (a full disk, a held lock).
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailable, databaseFailure, StorageFull } from '../../server/db/unavailable';

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('databaseFailure', () => {
  it.each([
    ['a reset socket', withCode('ECONNRESET', 'read ECONNRESET')],
    ['a refused connection', withCode('ECONNREFUSED')],
    ['both addresses of localhost refused', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])],
    ['an administrator ending the session', withCode('57P01', 'terminating connection due to administrator command')],
    ['a server starting up', withCode('57P03', 'the database system is starting up')],
    ['too many connections', withCode('53300')],
    ['statement_timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['a connection exception', withCode('08006')],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['a client past its error', new Error('Client has encountered a connection error and is not queryable')],
    ['no connection in time', new Error('timeout exceeded when trying to connect')],
    ['no answer in time', new Error('Query read timeout')],
    ['a lock held too long', withCode('SQLITE_BUSY', 'database is locked')],
    ['a snapshot lock', withCode('SQLITE_BUSY_SNAPSHOT')],
  ])('503 for %s', (_, err) => {
    expect(databaseFailure(err)).toBeInstanceOf(DatabaseUnavailable);
    expect(databaseFailure(err)?.statusCode).toBe(503);
  });

  it.each([
    ['SQLite', withCode('SQLITE_FULL', 'database or disk is full')],
    ['a file write', withCode('ENOSPC')],
  ])('507 for a full disk (%s)', (_, err) => {
    expect(databaseFailure(err)).toBeInstanceOf(StorageFull);
    expect(databaseFailure(err)?.statusCode).toBe(507);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain fault', new Error('boom')],
    // Another service's failure may carry a socket error as its cause: it is not the database's.
    [
      'a failed S3 write',
      Object.assign(new Error('S3 write failed', { cause: withCode('ECONNREFUSED') }), { code: 'S3_WRITE_FAILED' }),
    ],
    ['nothing', undefined],
  ])('nothing for %s', (_, err) => {
    expect(databaseFailure(err)).toBeNull();
  });
});
