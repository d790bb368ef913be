// Sockets live no longer than their sign-in: logout closes that session's sockets (and only those), an expiring
// token is announced and the socket closed unless renewed, pages from other origins are refused, and one user
// holds at most 20 sockets (the oldest are closed with a reason).
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKETS_PER_USER_MAX } from '../../server/realtime/socket-sessions';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { type Api, ack, closeAll, connect, next, roundTrip, type TestUser } from './socket-helpers';

const disconnected = (s: Socket, ms = 5000) =>
  new Promise<string>((resolve, reject) => {
    if (s.disconnected) return resolve('already');
    const t = setTimeout(() => reject(new Error(`still connected after ${ms} ms`)), ms);
    s.once('disconnect', (reason) => {
      clearTimeout(t);
      resolve(reason);
    });
  });

async function signIn(api: Api, user: TestUser) {
  const r = await api.post('/api/auth/login', { username: user.username, password: user.password });
  expect(r.status).toBe(200);
  return r.body as { accessToken: string; refreshToken: string };
}

describe('logout and origins', () => {
  let srv: TestServer;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    // X-Forwarded-Host below comes from the reverse proxy on this machine (TRUST_PROXY=loopback).
    srv = await startTestServer({ allowedOrigins: ['https://chat.example.org'], trustProxy: ['loopback'] });
    api = client(srv.url);
    [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
  });
  afterAll(async () => {
    closeAll();
    await srv.close();
  });

  it('logout closes the sockets of that sign-in, says why, and its token opens no new socket', async () => {
    const laptop = await signIn(api, alice);
    const phone = await signIn(api, alice);
    const [tab1, tab2, other] = await Promise.all([
      connect(srv.url, laptop.accessToken),
      connect(srv.url, laptop.accessToken),
      connect(srv.url, phone.accessToken),
    ]);
    const told = [next(tab1, 'session:closed'), next(tab2, 'session:closed')];
    const gone = [disconnected(tab1), disconnected(tab2)];
    expect((await api.post('/api/auth/logout', { refreshToken: laptop.refreshToken })).status).toBe(200);
    for (const t of await Promise.all(told)) expect(t).toEqual({ reason: 'logout', message: 'Вы вышли из аккаунта' });
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    // The other sign-in is untouched.
    await roundTrip(other);
    expect(other.connected).toBe(true);
    // The signed-out session's access token is still within its 15 minutes, but opens no socket.
    await expect(connect(srv.url, laptop.accessToken)).rejects.toThrow('Требуется вход');
    expect((await connect(srv.url, phone.accessToken)).connected).toBe(true);
  });

  it('refuses a handshake from another site, with a valid token', async () => {
    const from = (origin: string) => connect(srv.url, bob.accessToken, { headers: { origin } });
    await expect(from('http://evil.example')).rejects.toThrow();
    await expect(from('null')).rejects.toThrow();
    await expect(from(`http://127.0.0.1:${srv.port + 1}`)).rejects.toThrow();
  });

  it("accepts the app's own origin (http or https), ALLOWED_ORIGINS and clients that send no Origin", async () => {
    const from = (origin: string, headers: Record<string, string> = {}) =>
      connect(srv.url, bob.accessToken, { headers: { origin, ...headers } });
    expect((await from(`http://127.0.0.1:${srv.port}`)).connected).toBe(true);
    expect((await from(`https://127.0.0.1:${srv.port}`)).connected).toBe(true);
    expect((await from('https://chat.example.org')).connected).toBe(true);
    // Behind a reverse proxy (or the Vite dev proxy) the browser's host arrives as X-Forwarded-Host.
    expect((await from('https://messenger.example', { 'x-forwarded-host': 'messenger.example' })).connected).toBe(true);
    expect((await connect(srv.url, bob.accessToken)).connected).toBe(true);
  });
});

describe('token expiry', () => {
  let srv: TestServer;
  let api: Api;
  let carol: TestUser;
  let dave: TestUser;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = manualClock();
    srv = await startTestServer({ accessTokenTtlSec: 3 }, { clock });
    api = client(srv.url);
    [carol, dave] = await Promise.all([api.user('carol'), api.user('dave')]);
  });
  afterAll(async () => {
    closeAll();
    await srv.close();
  });

  const expiryOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).exp * 1000;

  it('tells a socket its token is expiring, then says expired and closes it', async () => {
    const session = await signIn(api, carol);
    const exp = expiryOf(session.accessToken);
    const seen: Array<[string, unknown]> = [];
    const onEvent = (e: string, p: unknown) => e.startsWith('session:') && seen.push([e, p]);
    const socket = await connect(srv.url, session.accessToken, { onEvent });
    const gone = disconnected(socket);
    const expiring = next(socket, 'session:expiring');
    clock.advance(500);
    await expiring;
    // Less than 60 s remain, so the notice comes after a tenth of the token's remaining life.
    expect(seen).toEqual([['session:expiring', { expiresAt: new Date(exp).toISOString() }]]);
    // Open until the token's last millisecond…
    clock.advance(exp - 1 - clock.now());
    await roundTrip(socket);
    expect(seen).toHaveLength(1);
    // …closed when it runs out.
    clock.advance(1);
    expect(await gone).toBe('io server disconnect');
    expect(seen.at(-1)).toEqual(['session:expired', {}]);
  });

  it('session:renew with a fresh token of the same user keeps the socket open past the old expiry', async () => {
    const session = await signIn(api, carol);
    const firstExp = expiryOf(session.accessToken);
    const events: string[] = [];
    const socket = await connect(srv.url, session.accessToken, {
      onEvent: (e) => e.startsWith('session:') && events.push(e),
    });
    const expiring = next(socket, 'session:expiring');
    clock.advance(1500);
    await expiring;
    expect(events).toEqual(['session:expiring']);
    // Not someone else's token, nor garbage.
    const other = await signIn(api, dave);
    expect(await ack(socket, 'session:renew', { token: other.accessToken })).toEqual({
      ok: false,
      message: 'Токен недействителен или выдан другому пользователю',
    });
    expect((await ack(socket, 'session:renew', { token: 'x.y.z' })).ok).toBe(false);
    expect((await ack(socket, 'session:renew', {})).ok).toBe(false);
    const fresh = await api.post('/api/auth/refresh', { refreshToken: session.refreshToken });
    expect(fresh.status).toBe(200);
    const renewed = next(socket, 'session:expiring');
    expect(await ack(socket, 'session:renew', { token: fresh.body.accessToken })).toEqual({ ok: true });
    // Not at once after the renewal (that would make a client with short tokens refresh in a loop): a tenth of
    // the 2-3 s the fresh token has left.
    clock.advance(149);
    await roundTrip(socket);
    expect(events).toEqual(['session:expiring']);
    clock.advance(151);
    await renewed;
    // Past the first token's expiry: still connected.
    clock.advance(firstExp - clock.now());
    await roundTrip(socket);
    expect(socket.connected).toBe(true);
    expect(events).not.toContain('session:expired');
    // The renewed deadline holds too.
    const gone = disconnected(socket);
    clock.advance(expiryOf(fresh.body.accessToken) - clock.now());
    expect(await gone).toBe('io server disconnect');
    expect(events.at(-1)).toBe('session:expired');
  });
});

describe('sockets per user', () => {
  let srv: TestServer;
  let api: Api;
  let erin: TestUser;

  let clock: ManualClock;

  beforeAll(async () => {
    clock = manualClock();
    srv = await startTestServer({}, { clock });
    api = client(srv.url);
    erin = await api.user('erin');
  });
  afterAll(async () => {
    closeAll();
    await srv.close();
  });

  it(`keeps the newest ${SOCKETS_PER_USER_MAX} sockets of a user and closes the oldest with a reason`, async () => {
    const sockets: Socket[] = [];
    // Each a few milliseconds after the previous one: the server orders sockets by when they connected.
    for (let i = 0; i < SOCKETS_PER_USER_MAX; i++) {
      sockets.push(await connect(srv.url, erin.accessToken));
      clock.advance(5);
    }
    await Promise.all(sockets.map(roundTrip));
    expect(sockets.every((s) => s.connected)).toBe(true);
    const oldest = sockets[0];
    const told = next(oldest, 'session:closed');
    const gone = disconnected(oldest);
    const extra = [await connect(srv.url, erin.accessToken)];
    clock.advance(5);
    extra.push(await connect(srv.url, erin.accessToken));
    expect(await told).toEqual({
      reason: 'tooManyConnections',
      message: 'Слишком много открытых вкладок: эта закрыта. Обновите страницу, чтобы продолжить здесь.',
    });
    expect(await gone).toBe('io server disconnect');
    await expect.poll(() => sockets[1].connected, { timeout: 3000 }).toBe(false);
    await Promise.all([...sockets.slice(2), ...extra].map(roundTrip));
    expect([...sockets.slice(2), ...extra].filter((s) => s.connected)).toHaveLength(SOCKETS_PER_USER_MAX);
  });
});
