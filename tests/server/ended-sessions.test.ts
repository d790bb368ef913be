// A sign-in that ends takes its access tokens with it at once, on HTTP too: after sign-out (or a refresh token
// presented twice) the JWT, still within its 15 minutes, gets 401; the user's other sign-ins keep working; a
// server process started afterwards knows it from the database; and after the token lifetime nothing is kept.
// Across processes: tests/server/scale-out.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ENDED } from '../../server/auth/authenticate';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import type { Api } from './socket-helpers';

let srv: TestServer;
let api: Api;
let clock: ManualClock;

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({ accessTokenTtlSec: 900 }, { clock });
  api = client(srv.url);
});
afterAll(async () => srv?.close());

const signIn = async (username: string, password: string) =>
  (await api.post('/api/auth/login', { username, password })).body as { accessToken: string; refreshToken: string };

describe('an ended sign-in', () => {
  it("refuses that sign-in's access token on its next request; the user's other sign-ins go on", async () => {
    const u = await api.user('ann');
    const other = await signIn(u.username, u.password);
    expect((await api.get('/api/conversations', u.accessToken)).status).toBe(200);
    expect((await api.post('/api/auth/logout', { refreshToken: u.refreshToken })).status).toBe(200);
    const refused = await api.get('/api/conversations', u.accessToken);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(SESSION_ENDED);
    expect((await api.get('/api/contacts', u.accessToken)).status).toBe(401);
    expect((await api.get('/api/conversations', other.accessToken)).status).toBe(200);
  });

  it('ends with a refresh token presented twice (a stolen copy): its access tokens stop too', async () => {
    const u = await api.user('ben');
    const rotated = (await api.post('/api/auth/refresh', { refreshToken: u.refreshToken })).body;
    expect((await api.get('/api/conversations', rotated.accessToken)).status).toBe(200);
    expect((await api.post('/api/auth/refresh', { refreshToken: u.refreshToken })).status).toBe(401);
    expect((await api.get('/api/conversations', rotated.accessToken)).status).toBe(401);
    expect((await api.get('/api/conversations', u.accessToken)).status).toBe(401);
  });

  it('is known to a server process started after it (read from the database)', async () => {
    const u = await api.user('cat');
    const live = await signIn(u.username, u.password);
    await api.post('/api/auth/logout', { refreshToken: u.refreshToken });
    const later = await startTestServer(
      { dataDir: srv.config.dataDir, databaseUrl: srv.config.databaseUrl, accessTokenTtlSec: 900 },
      { clock },
    );
    try {
      const api2 = client(later.url);
      expect((await api2.get('/api/conversations', u.accessToken)).status).toBe(401);
      // A sign-in whose refresh token was only rotated (one token revoked, a newer one live) is not ended.
      const rotated = (await api.post('/api/auth/refresh', { refreshToken: live.refreshToken })).body;
      expect((await api2.get('/api/conversations', rotated.accessToken)).status).toBe(200);
      expect((await api2.get('/api/conversations', live.accessToken)).status).toBe(200);
    } finally {
      await later.close();
    }
  });

  it('is forgotten once no token of it can be valid anyway (the token has expired by then)', async () => {
    const u = await api.user('dan');
    await api.post('/api/auth/logout', { refreshToken: u.refreshToken });
    expect(srv.server.app.endedSessions.has(sessionOf(u.accessToken))).toBe(true);
    clock.advance(900_000 + 1);
    expect(srv.server.app.endedSessions.has(sessionOf(u.accessToken))).toBe(false);
    const res = await api.get('/api/conversations', u.accessToken);
    expect(res.status).toBe(401);
    expect(res.body.message).not.toBe(SESSION_ENDED);
  });
});

/** The sign-in (refresh family) an access token names. */
function sessionOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'));
  return payload.sid;
}
