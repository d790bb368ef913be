// Ending a sign-in cannot be outraced by refreshing it (docs/accounts.md «Ending a sign-in»): a sign-out, «Завершить
// другие сеансы» or a password change, sent together with many refreshes over real HTTP, leaves no refresh token
// that works, no live token row behind and no access token that opens /api, neither at once nor once the access
// tokens have expired. On SQLite and (with TEST_PG_URL) PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';

let srv: TestServer;
let api: ReturnType<typeof client>;
let clock: ManualClock;

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({ accessTokenTtlSec: 900 }, { clock });
  api = client(srv.url);
});
afterAll(async () => srv?.close());

type Tokens = { accessToken: string; refreshToken: string };

const signIn = async (username: string, password: string): Promise<Tokens> => {
  const res = await api.post('/api/auth/login', { username, password });
  expect(res.status).toBe(200);
  return res.body;
};

/** `n` sign-ins of one user, one after another (parallel sign-ins of one name from one address are throttled). */
async function signIns(username: string, password: string, n: number): Promise<Tokens[]> {
  const out: Tokens[] = [];
  for (let i = 0; i < n; i++) out.push(await signIn(username, password));
  return out;
}

const refresh = (refreshToken: string) => api.post('/api/auth/refresh', { refreshToken });

/** The sign-in (refresh family) an access token names. */
const sessionOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')).sid;

/** Live refresh-token rows of these sign-ins, straight from the database. */
async function liveTokens(families: string[]): Promise<number> {
  const rows = await srv.server.ctx.db
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', 'in', families)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.length;
}

/**
 * Everything the ended sign-ins were ever handed (their first tokens and every refresh that answered 200) is dead:
 * no refresh works, no access token opens /api — now, and after the access-token lifetime has passed.
 */
async function expectAllDead(ended: Tokens[], families: string[]): Promise<void> {
  expect(await liveTokens(families)).toBe(0);
  const signIns = await srv.server.ctx.db.selectFrom('sign_ins').select('id').where('id', 'in', families).execute();
  expect(signIns).toEqual([]);
  for (const t of ended) expect((await api.get('/api/conversations', t.accessToken)).status).toBe(401);
  clock.advance(900_000 + 1);
  for (const t of ended) {
    expect((await api.get('/api/conversations', t.accessToken)).status).toBe(401);
    const again = await refresh(t.refreshToken);
    expect(again.status).toBe(401);
    expect(again.body.message).toBe('Сессия истекла, войдите снова');
  }
  expect(await liveTokens(families)).toBe(0);
}

describe('ending a sign-in while it is being refreshed', () => {
  it('a sign-out racing 20 parallel refreshes of its token leaves nothing alive', async () => {
    const u = await api.user('race');
    const [out, ...answers] = await Promise.all([
      api.post('/api/auth/logout', { refreshToken: u.refreshToken }),
      ...Array.from({ length: 20 }, () => refresh(u.refreshToken)),
    ]);
    expect(out.status).toBe(200);
    // Of 20 uses of one token at most one can win; the rest read as reuse.
    const won = answers.filter((a) => a.status === 200);
    expect(won.length).toBeLessThanOrEqual(1);
    for (const a of answers) if (a.status !== 200) expect(a.status).toBe(401);
    await expectAllDead([u, ...won.map((a) => a.body as Tokens)], [sessionOf(u.accessToken)]);
  });

  it('20 sign-ins each signed out while being refreshed leave nothing alive', async () => {
    const u = await api.user('pairs');
    const sessions = await signIns(u.username, u.password, 20);
    const answers = await Promise.all(
      sessions.flatMap((s) => [
        refresh(s.refreshToken),
        api.post('/api/auth/logout', { refreshToken: s.refreshToken }),
      ]),
    );
    for (const a of answers) expect([200, 401]).toContain(a.status);
    const handed = answers.filter((a) => a.status === 200 && a.body.refreshToken).map((a) => a.body as Tokens);
    await expectAllDead(
      [...sessions, ...handed],
      sessions.map((s) => sessionOf(s.accessToken)),
    );
    // The account itself is fine: it signs in again.
    expect((await api.post('/api/auth/login', { username: u.username, password: u.password })).status).toBe(200);
  });

  it('«Завершить другие сеансы» racing refreshes of the other sign-ins leaves only the current one', async () => {
    const u = await api.user('others');
    const others = await signIns(u.username, u.password, 20);
    const [ended, ...answers] = await Promise.all([
      api.post('/api/auth/sessions/end-others', {}, u.accessToken),
      ...others.map((s) => refresh(s.refreshToken)),
    ]);
    expect(ended.status).toBe(200);
    const handed = answers.filter((a) => a.status === 200).map((a) => a.body as Tokens);
    const families = others.map((s) => sessionOf(s.accessToken));
    // The sign-in that asked keeps working.
    expect((await api.get('/api/conversations', u.accessToken)).status).toBe(200);
    await expectAllDead([...others, ...handed], families);
    const kept = await refresh(u.refreshToken);
    expect(kept.status).toBe(200);
    expect((await api.get('/api/conversations', kept.body.accessToken)).status).toBe(200);
  });

  it('«Завершить другие сеансы» racing 20 refreshes of one other sign-in leaves it ended', async () => {
    const u = await api.user('other1');
    const other = await signIn(u.username, u.password);
    const [ended, ...answers] = await Promise.all([
      api.post('/api/auth/sessions/end-others', {}, u.accessToken),
      ...Array.from({ length: 20 }, () => refresh(other.refreshToken)),
    ]);
    expect(ended.status).toBe(200);
    const handed = answers.filter((a) => a.status === 200).map((a) => a.body as Tokens);
    expect(handed.length).toBeLessThanOrEqual(1);
    await expectAllDead([other, ...handed], [sessionOf(other.accessToken)]);
    expect((await refresh(u.refreshToken)).status).toBe(200);
  });

  it('a password change racing refreshes of the other sign-ins ends them all', async () => {
    const u = await api.user('pwrace');
    const others = await signIns(u.username, u.password, 10);
    const [changed, ...answers] = await Promise.all([
      api.post('/api/auth/password', { currentPassword: u.password, newPassword: 'a new password 1' }, u.accessToken),
      ...others.map((s) => refresh(s.refreshToken)),
    ]);
    expect(changed.status).toBe(200);
    const handed = answers.filter((a) => a.status === 200).map((a) => a.body as Tokens);
    await expectAllDead(
      [...others, ...handed],
      others.map((s) => sessionOf(s.accessToken)),
    );
    expect((await refresh(u.refreshToken)).status).toBe(200);
  });

  it('a refresh token left without its sign-in is refused with its family, and the sweep revokes such tokens', async () => {
    const u = await api.user('orphan');
    const family = sessionOf(u.accessToken);
    const { db } = srv.server.ctx;
    // As the old race left it: the sign-in row gone, its token still unrevoked.
    await db.deleteFrom('sign_ins').where('id', '=', family).execute();
    expect(await liveTokens([family])).toBe(1);
    const res = await refresh(u.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Сессия истекла, войдите снова');
    expect(await liveTokens([family])).toBe(0);
    expect((await api.get('/api/conversations', u.accessToken)).status).toBe(401);

    const v = await api.user('orphan2');
    const family2 = sessionOf(v.accessToken);
    await db.deleteFrom('sign_ins').where('id', '=', family2).execute();
    clock.advance(61_000);
    expect((await api.get('/api/conversations', v.accessToken)).status).toBe(200);
    expect(await srv.server.app.signIns.revokeOrphans()).toBeGreaterThanOrEqual(1);
    expect(await liveTokens([family2])).toBe(0);
    // Its access tokens stop with it, as with any ended sign-in.
    expect((await api.get('/api/conversations', v.accessToken)).status).toBe(401);
  });
});
