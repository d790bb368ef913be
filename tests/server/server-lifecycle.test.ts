// The server as plugins (server/app.ts): the realtime plugin closes its sockets before the HTTP server closes
// (an open websocket would keep it open) and lets the presence write of those sockets finish before the database
// plugin closes the database; features add socket events only while the server is being built.
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { client, startTestServer, type TestServer } from './harness';
import { connect, next } from './socket-helpers';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('server lifecycle', () => {
  it('closes with sockets still open: they are disconnected first, and their presence is written', async () => {
    const srv = await startTestServer();
    servers.push(srv);
    const alice = await client(srv.url).user('alice');
    const socket = await connect(srv.url, alice.accessToken);
    const disconnected = next(socket, 'disconnect', () => true, 10_000);
    await srv.server.close();
    await disconnected;
    // The database was closed after the last socket's OFFLINE write: it is there when opened again.
    const { db } = await openDatabase(srv.config);
    try {
      const row = await db
        .selectFrom('users')
        .select('last_seen_at')
        .where('id', '=', alice.user.id)
        .executeTakeFirstOrThrow();
      expect(row.last_seen_at).not.toBeNull();
    } finally {
      await db.destroy();
    }
  });

  it('takes socket events from features while it is being built, not once it runs', async () => {
    const srv = await startTestServer();
    servers.push(srv);
    expect(() => srv.server.app.realtime.onClientEvent('call:end', () => {})).toThrow(
      /registered after the server started/,
    );
  });
});
