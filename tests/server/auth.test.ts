import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { manualClock } from './manual-clock';

let srv: TestServer;
let http: ReturnType<typeof client>;
beforeAll(async () => {
  srv = await startTestServer({ loginMaxFailures: 3, loginLockSec: 60 });
  http = client(srv.url);
});
afterAll(() => srv?.close());

describe('health', () => {
  it('answers 200 when ready', async () => {
    expect(await http.get('/api/health')).toMatchObject({ status: 200, body: { ok: true } });
  });
});

describe('registration', () => {
  it('creates a user with every User field and a four-digit EBLID', async () => {
    const res = await http.post('/api/auth/register', {
      username: 'Anna_1',
      displayName: 'Анна',
      password: 'password1',
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({
      username: 'Anna_1',
      displayName: 'Анна',
      avatarUrl: null,
      bio: null,
      status: 'ONLINE',
      messagePrivacy: 'groups',
    });
    expect(res.body.user.eblid).toMatch(/^\d{4}$/);
    expect(Object.keys(res.body.user).sort()).toEqual(
      [
        'avatarUrl',
        'bio',
        'customStatus',
        'displayName',
        'eblid',
        'email',
        'id',
        'lastSeenAt',
        'messagePrivacy',
        'role',
        'status',
        'username',
      ].sort(),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
  });

  it('refuses a taken username case-insensitively with 409 and a message', async () => {
    await http.post('/api/auth/register', { username: 'boris', displayName: 'Борис', password: 'password1' });
    const res = await http.post('/api/auth/register', {
      username: 'BORIS',
      displayName: 'Другой',
      password: 'password2',
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Этот никнейм уже занят');
  });

  it.each([
    [{ username: 'ab', displayName: 'Ok', password: 'password1' }, /Никнейм/],
    [{ username: 'abc', displayName: 'O', password: 'password1' }, /Имя/],
    [{ username: 'abcd', displayName: 'Ok', password: 'short' }, /Пароль/],
    [{ username: 'abcd', displayName: 'Ok' }, /password/],
    [{ username: 'a'.repeat(33), displayName: 'Ok', password: 'password1' }, /Никнейм/],
    [{ username: 'has space', displayName: 'Ok', password: 'password1' }, /Никнейм/],
    [{ username: 42, displayName: 'Ok', password: 'password1' }, /username/],
  ])('refuses %j with 400 and a message', async (body, message) => {
    const res = await http.post('/api/auth/register', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('gives every user a distinct EBLID', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => http.user('eb')));
    const codes = users.map((u) => u.user.eblid);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^\d{4}$/);
  });
});

describe('sign-in and sessions', () => {
  it('signs in case-insensitively and the access token opens protected routes', async () => {
    await http.post('/api/auth/register', { username: 'Clara', displayName: 'Клара', password: 'password1' });
    const login = await http.post('/api/auth/login', { username: 'clara', password: 'password1' });
    expect(login.status).toBe(200);
    expect(login.body.user.username).toBe('Clara');
    expect(login.body.refreshToken.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits in base64url
    const me = await http.get('/api/status/me', login.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(login.body.user.id);
  });

  it('refuses a wrong password and an unknown user alike with 401', async () => {
    const u = await http.user('dan');
    const wrong = await http.post('/api/auth/login', { username: u.username, password: 'wrong-password' });
    const unknown = await http.post('/api/auth/login', { username: 'nobody-here', password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it('needs a bearer token on protected routes', async () => {
    expect((await http.get('/api/status/me')).status).toBe(401);
    expect((await http.get('/api/status/me', 'not-a-jwt')).status).toBe(401);
    const res = await http.call('GET', '/api/contacts', { headers: { authorization: 'Basic abc' } });
    expect(res.status).toBe(401);
    expect(res.body.message).toBeTruthy();
  });

  it('rotates the refresh token on every use', async () => {
    const u = await http.user('rot');
    const r1 = await http.post('/api/auth/refresh', { refreshToken: u.refreshToken });
    expect(r1.status).toBe(200);
    expect(r1.body.refreshToken).not.toBe(u.refreshToken);
    expect((await http.get('/api/status/me', r1.body.accessToken)).status).toBe(200);
    const r2 = await http.post('/api/auth/refresh', { refreshToken: r1.body.refreshToken });
    expect(r2.status).toBe(200);
  });

  it('revokes the whole family when a rotated token is reused', async () => {
    const u = await http.user('reuse');
    const r1 = await http.post('/api/auth/refresh', { refreshToken: u.refreshToken });
    expect(r1.status).toBe(200);
    // The old token again: someone else has it, so the newer one dies too.
    const replay = await http.post('/api/auth/refresh', { refreshToken: u.refreshToken });
    expect(replay.status).toBe(401);
    const next = await http.post('/api/auth/refresh', { refreshToken: r1.body.refreshToken });
    expect(next.status).toBe(401);
  });

  it("logs each refused refresh with its reason and sign-in, never the token (the operator's «why was I signed out?»)", async () => {
    const lines: string[] = [];
    const logged = await startTestServer(
      { logLevel: 'warn' },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      const api = client(logged.url);
      const u = await api.user('logged');
      const rotated = await api.post('/api/auth/refresh', { refreshToken: u.refreshToken });
      expect(rotated.status).toBe(200);
      expect((await api.post('/api/auth/refresh', { refreshToken: 'y'.repeat(43) })).status).toBe(401);
      expect((await api.post('/api/auth/refresh', { refreshToken: u.refreshToken })).status).toBe(401);
      const refusals = lines
        .map((line) => JSON.parse(line) as { msg: string; reason?: string; session?: string | null })
        .filter((entry) => entry.msg === 'refresh token refused');
      expect(refusals.map(({ reason, session }) => ({ reason, session }))).toEqual([
        { reason: 'unknown', session: null },
        { reason: 'reused', session: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      ]);
      expect(lines.join('\n')).not.toContain(u.refreshToken);
    } finally {
      await logged.close();
    }
  });

  it('lets only one of two concurrent refreshes with the same token win', async () => {
    const u = await http.user('race');
    const [a, b] = await Promise.all([
      http.post('/api/auth/refresh', { refreshToken: u.refreshToken }),
      http.post('/api/auth/refresh', { refreshToken: u.refreshToken }),
    ]);
    expect([a.status, b.status].filter((s) => s === 200).length).toBeLessThanOrEqual(1);
  });

  it('logout revokes the refresh token but not other sessions', async () => {
    const u = await http.user('out');
    const other = await http.post('/api/auth/login', { username: u.username, password: u.password });
    expect((await http.post('/api/auth/logout', { refreshToken: u.refreshToken })).status).toBe(200);
    expect((await http.post('/api/auth/refresh', { refreshToken: u.refreshToken })).status).toBe(401);
    expect((await http.post('/api/auth/refresh', { refreshToken: other.body.refreshToken })).status).toBe(200);
  });

  it('refuses an unknown refresh token', async () => {
    const res = await http.post('/api/auth/refresh', { refreshToken: 'x'.repeat(43) });
    expect(res.status).toBe(401);
  });

  it('throttles failed sign-ins per username, even with the right password', async () => {
    const u = await http.user('thr');
    const bystander = await http.user('bys');
    for (let i = 0; i < 3; i++) {
      expect((await http.post('/api/auth/login', { username: u.username, password: 'bad-password' })).status).toBe(401);
    }
    const locked = await http.post('/api/auth/login', { username: u.username, password: u.password });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/попыток/);
    // Other usernames are unaffected.
    expect(
      (await http.post('/api/auth/login', { username: bystander.username, password: bystander.password })).status,
    ).toBe(200);
  });

  it('a successful sign-in resets the failure count', async () => {
    const u = await http.user('reset');
    for (let i = 0; i < 2; i++) await http.post('/api/auth/login', { username: u.username, password: 'bad-password' });
    expect((await http.post('/api/auth/login', { username: u.username, password: u.password })).status).toBe(200);
    for (let i = 0; i < 2; i++) await http.post('/api/auth/login', { username: u.username, password: 'bad-password' });
    expect((await http.post('/api/auth/login', { username: u.username, password: u.password })).status).toBe(200);
  });

  it('expired access tokens are refused', async () => {
    const clock = manualClock();
    const short = await startTestServer({ accessTokenTtlSec: 1 }, { clock });
    try {
      const h = client(short.url);
      const u = await h.user('exp');
      expect((await h.get('/api/status/me', u.accessToken)).status).toBe(200);
      // Good until the last millisecond before its exp (whole seconds), refused from then on.
      const exp = JSON.parse(Buffer.from(u.accessToken.split('.')[1], 'base64url').toString()).exp * 1000;
      clock.advance(exp - clock.now() - 1);
      expect((await h.get('/api/status/me', u.accessToken)).status).toBe(200);
      clock.advance(1);
      expect((await h.get('/api/status/me', u.accessToken)).status).toBe(401);
      const r = await h.post('/api/auth/refresh', { refreshToken: u.refreshToken });
      expect((await h.get('/api/status/me', r.body.accessToken)).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});

describe('secrets', () => {
  it('generates a strong secret on first start, keeps it private and reuses it', async () => {
    const file = path.join(srv.config.dataDir, 'secrets.json');
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(stored.jwtSecret.length).toBeGreaterThanOrEqual(43);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  });
});

/**
 * A refresh whose request began before a graceful close and whose rest arrives once the server stopped listening:
 * the connection is busy, so the close waits for it. Resolves the status and the body.
 */
async function refreshWhileClosing(srv: TestServer, refreshToken: string, close: () => Promise<void>) {
  const body = JSON.stringify({ refreshToken });
  const socket = net.connect(srv.port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write('POST /api/auth/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  let answer = '';
  socket.on('data', (d: Buffer) => {
    answer += d.toString();
  });
  const ended = once(socket, 'close');
  const server = srv.server.app.server;
  const closed = close();
  // The listener stops after the server has marked itself closing; the request's rest arrives after that.
  while (server.listening) await new Promise((r) => setImmediate(r));
  socket.write(`Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  await ended;
  await closed;
  return { status: Number(answer.split(' ')[1]), body: answer.slice(answer.indexOf('\r\n\r\n') + 4) };
}

describe('a server restart', () => {
  it('ends no sign-in: the tokens issued before it work after it; while closing a refresh is answered 503', async () => {
    const own = await startTestServer();
    try {
      const h = client(own.url);
      const u = await h.user('restart');
      // Caught in a graceful close, a refresh is told to try later (not refused), and its token is not used up.
      const whileClosing = await refreshWhileClosing(own, u.refreshToken, () => own.stop());
      expect(whileClosing.status).toBe(503);
      expect(JSON.parse(whileClosing.body).message).toBe('Service Unavailable');
      const whileDown = await fetch(`${own.url}/api/health`).then(
        (r) => `HTTP ${r.status}`,
        (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
      );
      expect(whileDown).toBe('ECONNREFUSED');
      await own.start();
      // The sign-in outlived the restart: the access token still opens the API, the refresh token still refreshes.
      expect((await h.get('/api/status/me', u.accessToken)).status).toBe(200);
      const refreshed = await h.post('/api/auth/refresh', { refreshToken: u.refreshToken });
      expect(refreshed.status).toBe(200);
      expect((await h.get('/api/status/me', refreshed.body.accessToken)).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});
