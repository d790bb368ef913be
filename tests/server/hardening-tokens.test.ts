// Access tokens signed with the server's own secret but missing a claim the server relies on (exp, typ, iss,
// sid) or using another algorithm are refused on REST and on the socket handshake; refresh-token families end
// after their absolute lifetime however often they are rotated.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_ISSUER } from '../../server/auth/access-tokens';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { type Api, closeAll, connect, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let clock: ManualClock;

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({ refreshTokenMaxAgeSec: 3 }, { clock });
  api = client(srv.url);
  alice = await api.user('alice');
});
afterAll(async () => {
  closeAll();
  await srv.close();
});

const sessionOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid as string;

async function forge(
  claims: Record<string, unknown>,
  opts: { alg?: string; exp?: number | null; iss?: string | null; sub?: string } = {},
): Promise<string> {
  const jwt = new SignJWT({ typ: 'access', sid: sessionOf(alice.accessToken), ...claims })
    .setProtectedHeader({ alg: opts.alg ?? 'HS256' })
    .setSubject(opts.sub ?? alice.user.id)
    .setIssuedAt();
  if (opts.exp !== null) jwt.setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600);
  if (opts.iss !== null) jwt.setIssuer(opts.iss ?? ACCESS_TOKEN_ISSUER);
  return jwt.sign(srv.server.ctx.secrets.jwtSecret);
}

async function accepted(token: string): Promise<{ rest: number; socket: boolean }> {
  const rest = (await api.get('/api/status/me', token)).status;
  const socket = await connect(srv.url, token).then(
    (s) => {
      s.disconnect();
      return true;
    },
    () => false,
  );
  return { rest, socket };
}

describe('access tokens', () => {
  it('a well-formed token signed with the secret is accepted (control)', async () => {
    expect(await accepted(await forge({}))).toEqual({ rest: 200, socket: true });
  });

  it('refuses a token without exp, on REST and on the socket', async () => {
    expect(await accepted(await forge({}, { exp: null }))).toEqual({ rest: 401, socket: false });
  });

  it('refuses a token with another typ or none', async () => {
    expect(await accepted(await forge({ typ: 'refresh' }))).toEqual({ rest: 401, socket: false });
    expect(await accepted(await forge({ typ: undefined }))).toEqual({ rest: 401, socket: false });
  });

  it('refuses a token without the issuer or from another one', async () => {
    expect(await accepted(await forge({}, { iss: null }))).toEqual({ rest: 401, socket: false });
    expect(await accepted(await forge({}, { iss: 'someone-else' }))).toEqual({ rest: 401, socket: false });
  });

  it('refuses another algorithm, even keyed with the same secret', async () => {
    expect(await accepted(await forge({}, { alg: 'HS512' }))).toEqual({ rest: 401, socket: false });
  });

  it('refuses a token without a session id', async () => {
    expect(await accepted(await forge({ sid: undefined }))).toEqual({ rest: 401, socket: false });
  });

  it('issues tokens carrying exp, typ, iss and the session id', async () => {
    const payload = JSON.parse(Buffer.from(alice.accessToken.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({
      typ: 'access',
      iss: ACCESS_TOKEN_ISSUER,
      sub: alice.user.id,
      sid: expect.any(String),
    });
    expect(payload.exp - payload.iat).toBe(srv.config.accessTokenTtlSec);
  });
});

describe('LiveKit tokens', () => {
  it('live at most 10 minutes (the media server refreshes them during a call)', async () => {
    const res = await api.post('/api/livekit/token', { room: 'lobby' }, alice.accessToken);
    expect(res.status).toBe(200);
    const payload = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
    expect(payload.exp - payload.nbf).toBeLessThanOrEqual(600);
    expect(payload.exp * 1000 - Date.now()).toBeGreaterThan(500_000);
  });
});

describe('refresh-token families', () => {
  it('end after REFRESH_TOKEN_MAX_AGE from the sign-in, however often they are rotated', async () => {
    const bob = await api.user('bob');
    let refreshToken = bob.refreshToken;
    // Rotating keeps the session alive while the family is young, up to its last millisecond…
    for (const ms of [1000, 1000, 999]) {
      clock.advance(ms);
      const r = await api.post('/api/auth/refresh', { refreshToken });
      expect(r.status).toBe(200);
      expect(sessionOf(r.body.accessToken)).toBe(sessionOf(bob.accessToken));
      refreshToken = r.body.refreshToken;
    }
    // …and not past its absolute lifetime (3 s here), although each token alone would last 30 days.
    clock.advance(1);
    const late = await api.post('/api/auth/refresh', { refreshToken });
    expect(late.status).toBe(401);
    expect(late.body.message).toBe('Сессия истекла, войдите снова');
  });
});
