// The organisation's sign-in against a real OpenID Connect provider (oidc-provider on loopback): the round trip with
// PKCE, state and nonce, accounts created or linked by password (never by e-mail), password sign-in switched off for
// members, and a person the provider refuses.
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { startTestProvider, type TestProvider } from './oidc-test-provider';

let op: TestProvider;
let srv: TestServer;
let http: ReturnType<typeof client>;
let admin: Awaited<ReturnType<ReturnType<typeof client>['user']>>;

beforeAll(async () => {
  op = await startTestProvider();
  srv = await startTestServer({
    oidc: { issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, name: 'Тестовый вход' },
  });
  op.redirectUris.push(`${srv.url}/api/auth/oidc/callback`);
  http = client(srv.url);
  // The first account administers the server.
  admin = await http.user('admin');
});
afterAll(async () => {
  await srv?.close();
  await op?.close();
});

/** GET /api/auth/oidc/start as a browser: the provider's URL and the round trip's cookie. */
async function start(): Promise<{ url: string; cookie: string }> {
  const res = await fetch(`${srv.url}/api/auth/oidc/start`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('beseda_oidc='));
  expect(cookie).toBeTruthy();
  return { url: res.headers.get('location') as string, cookie: cookie as string };
}

function complete(callback: string, cookie: string) {
  return http.call('POST', '/api/auth/oidc/complete', { body: { callback }, headers: { cookie } });
}

/** A whole round trip as `subject`: the answer of /complete. */
async function roundTrip(subject: string) {
  const { url, cookie } = await start();
  return complete(await op.signIn(url, subject), cookie);
}

describe('organisation sign-in', () => {
  it('tells the sign-in page about the provider', async () => {
    const res = await http.get('/api/registration');
    expect(res.body.signIn).toEqual({ provider: 'Тестовый вход', passwords: true });
  });

  it('sends the browser to the provider with PKCE, state and nonce, and back to the page', async () => {
    const { url, cookie } = await start();
    const u = new URL(url);
    expect(u.origin).toBe(op.issuer);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('state')).toBeTruthy();
    expect(u.searchParams.get('nonce')).toBeTruthy();
    expect(u.searchParams.get('redirect_uri')).toBe(`${srv.url}/api/auth/oidc/callback`);
    expect(cookie.length).toBeGreaterThan(40);
    const back = await fetch(`${srv.url}/api/auth/oidc/callback?code=x&state=y`, { redirect: 'manual' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/auth/oidc?code=x&state=y');
  });

  it('creates an account at the first sign-in and signs into it afterwards', async () => {
    op.people.set('sub-olga', { preferred_username: 'olga.petrova@corp.example', name: 'Ольга Петрова' });
    const first = await roundTrip('sub-olga');
    expect(first.status).toBe(200);
    expect(first.body.signedIn).toBeNull();
    expect(first.body.pending).toMatchObject({ displayName: 'Ольга Петрова', canCreate: true, needsInvite: false });
    const created = await http.post('/api/auth/oidc/create', { pendingLink: first.body.pending.pendingLink });
    expect(created.status).toBe(200);
    expect(created.body.user).toMatchObject({ username: 'olga.petrova', displayName: 'Ольга Петрова' });
    expect(created.body.accessToken).toBeTruthy();
    expect(created.body.refreshToken).toBeTruthy();
    expect(created.body.deviceMark).toBeTruthy();
    // The same session as a password's: it refreshes.
    const refreshed = await http.post('/api/auth/refresh', { refreshToken: created.body.refreshToken });
    expect(refreshed.status).toBe(200);
    const methods = await http.get('/api/auth/methods', created.body.accessToken);
    expect(methods.body).toEqual({ password: false, provider: 'Тестовый вход' });
    // The pending link is spent: a second account is not made from it.
    const again = await http.post('/api/auth/oidc/create', { pendingLink: first.body.pending.pendingLink });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Этот вход через организацию уже связан с учётной записью. Начните вход заново');

    const second = await roundTrip('sub-olga');
    expect(second.status).toBe(200);
    expect(second.body.pending).toBeNull();
    expect(second.body.signedIn.user.id).toBe(created.body.user.id);
  });

  it('makes a taken username unique', async () => {
    await http.post('/api/auth/register', { username: 'ivan', displayName: 'Иван', password: 'password1' });
    op.people.set('sub-ivan', { preferred_username: 'Ivan', name: 'Иван Другой' });
    const r = await roundTrip('sub-ivan');
    const created = await http.post('/api/auth/oidc/create', { pendingLink: r.body.pending.pendingLink });
    expect(created.body.user.username).toBe('Ivan2');
  });

  it('refuses a wrong state', async () => {
    const { url, cookie } = await start();
    const other = await start();
    // The answer to one trip, presented with another trip's cookie.
    const res = await complete(await op.signIn(url, 'sub-olga'), other.cookie);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Вход устарел или начат в другой вкладке. Начните вход заново');
    expect(cookie).not.toBe(other.cookie);
  });

  it('refuses an answer without the round trip cookie', async () => {
    const { url } = await start();
    const res = await complete(await op.signIn(url, 'sub-olga'), '');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Начните вход заново/);
  });

  it('refuses a replayed code', async () => {
    const { url, cookie } = await start();
    const callback = await op.signIn(url, 'sub-olga');
    expect((await complete(callback, cookie)).status).toBe(200);
    const replay = await complete(callback, cookie);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe('Код входа уже использован или устарел. Начните вход заново');
  });

  it('refuses a wrong nonce', async () => {
    const { url, cookie } = await start();
    const forged = new URL(url);
    forged.searchParams.set('nonce', 'not-this-trips-nonce');
    const res = await complete(await op.signIn(forged.href, 'sub-olga'), cookie);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Ответ сервера входа не прошёл проверку. Начните вход заново');
  });

  it('links an existing account only after its password, never by e-mail', async () => {
    const reg = await http.post('/api/auth/register', {
      username: 'maria',
      displayName: 'Мария',
      password: 'maria-password',
    });
    expect(reg.status).toBe(201);
    // The provider's e-mail matching nothing of the account's is not looked at; no link without the password.
    op.people.set('sub-maria', { preferred_username: 'maria', name: 'Мария', email: 'maria@corp.example' });
    const first = await roundTrip('sub-maria');
    expect(first.body.pending).not.toBeNull();
    const wrong = await http.post('/api/auth/oidc/link', {
      pendingLink: first.body.pending.pendingLink,
      username: 'maria',
      password: 'wrong-password',
    });
    expect(wrong.status).toBe(401);
    expect((await roundTrip('sub-maria')).body.signedIn).toBeNull();
    const linked = await http.post('/api/auth/oidc/link', {
      pendingLink: first.body.pending.pendingLink,
      username: 'maria',
      password: 'maria-password',
    });
    expect(linked.status).toBe(200);
    expect(linked.body.user.id).toBe(reg.body.user.id);
    const again = await roundTrip('sub-maria');
    expect(again.body.signedIn.user.id).toBe(reg.body.user.id);
    const methods = await http.get('/api/auth/methods', linked.body.accessToken);
    expect(methods.body).toEqual({ password: true, provider: 'Тестовый вход' });
  });

  it('refuses linking an account already linked to another person of the provider', async () => {
    op.people.set('sub-olga-2', { preferred_username: 'olga2', name: 'Другая Ольга' });
    const r = await roundTrip('sub-olga-2');
    const maria = await http.post('/api/auth/oidc/link', {
      pendingLink: r.body.pending.pendingLink,
      username: 'maria',
      password: 'maria-password',
    });
    expect(maria.status).toBe(409);
    expect(maria.body.message).toBe('Эта учётная запись уже связана с другим пользователем организации');
  });

  it('refuses linking by password an account with a second factor, which the password alone would get past', async () => {
    const u = await http.user('guarded');
    const begun = await http.post('/api/auth/two-factor/begin', {}, u.accessToken);
    expect(begun.status).toBe(200);
    const code = generateSync({ secret: begun.body.secret, epoch: Math.floor(Date.now() / 1000) });
    expect((await http.post('/api/auth/two-factor/confirm', { code }, u.accessToken)).status).toBe(200);
    op.people.set('sub-guarded', { preferred_username: 'guarded-corp', name: 'Охраняемый' });
    const first = await roundTrip('sub-guarded');
    const link = await http.post('/api/auth/oidc/link', {
      pendingLink: first.body.pending.pendingLink,
      username: u.username,
      password: u.password,
    });
    expect(link.status).toBe(403);
    expect(link.body.message).toMatch(/^Эту учётную запись защищает двухэтапная проверка/);
    expect(link.body.accessToken).toBeUndefined();
    // Nothing was linked: the person is still asked what to do.
    expect((await roundTrip('sub-guarded')).body.pending).not.toBeNull();
  });

  it('links nobody by a matching e-mail', async () => {
    const reg = await http.post('/api/auth/register', {
      username: 'petr',
      displayName: 'Пётр',
      password: 'petr-password',
    });
    expect(reg.status).toBe(201);
    const me = await http.patch('/api/status/me', { email: 'petr@corp.example' }, reg.body.accessToken);
    op.people.set('sub-petr', { preferred_username: 'petr', name: 'Пётр', email: 'petr@corp.example' });
    const r = await roundTrip('sub-petr');
    expect(r.body.signedIn).toBeNull();
    expect(r.body.pending).not.toBeNull();
    expect(me.status).toBeLessThan(500);
  });

  it('turns password sign-in off for members but not administrators', async () => {
    const member = await http.user('member');
    const off = await http.patch('/api/admin/settings', { passwordSignIn: false }, admin.accessToken);
    expect(off.status).toBe(200);
    try {
      expect((await http.get('/api/registration')).body.signIn).toEqual({
        provider: 'Тестовый вход',
        passwords: false,
      });
      const refused = await http.post('/api/auth/login', { username: member.username, password: member.password });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Вход по паролю отключён администратором. Войдите через «Тестовый вход»');
      const registering = await http.post('/api/auth/register', {
        username: 'newcomer',
        displayName: 'Новичок',
        password: 'password1',
      });
      expect(registering.status).toBe(403);
      const byAdmin = await http.post('/api/auth/login', { username: admin.username, password: admin.password });
      expect(byAdmin.status).toBe(200);
      // A member still links their account with its password, and then signs in through the provider.
      op.people.set('sub-member', { preferred_username: 'member', name: 'Участник' });
      const r = await roundTrip('sub-member');
      const linked = await http.post('/api/auth/oidc/link', {
        pendingLink: r.body.pending.pendingLink,
        username: member.username,
        password: member.password,
      });
      expect(linked.status).toBe(200);
      expect((await roundTrip('sub-member')).body.signedIn.user.id).toBe(member.user.id);
    } finally {
      await http.patch('/api/admin/settings', { passwordSignIn: true }, admin.accessToken);
    }
  });

  it('refuses a person the provider disabled', async () => {
    op.people.set('sub-gone', { preferred_username: 'gone', name: 'Ушедший' });
    const first = await roundTrip('sub-gone');
    await http.post('/api/auth/oidc/create', { pendingLink: first.body.pending.pendingLink });
    op.people.set('sub-gone', { preferred_username: 'gone', name: 'Ушедший', disabled: true });
    const refused = await roundTrip('sub-gone');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Тестовый вход не пустил вас: вход отклонён');
  });

  it('refuses creating an account while registration is closed', async () => {
    await http.patch('/api/admin/settings', { registration: 'closed' }, admin.accessToken);
    try {
      op.people.set('sub-late', { preferred_username: 'late', name: 'Опоздавший' });
      const r = await roundTrip('sub-late');
      expect(r.body.pending).toMatchObject({ canCreate: false });
      const created = await http.post('/api/auth/oidc/create', { pendingLink: r.body.pending.pendingLink });
      expect(created.status).toBe(403);
    } finally {
      await http.patch('/api/admin/settings', { registration: 'open' }, admin.accessToken);
    }
  });

  it('forgets the link of a deleted account: the person may start afresh', async () => {
    const member = await http.user('leaving');
    op.people.set('sub-leaving', { preferred_username: 'leaving', name: 'Уходящий' });
    const r = await roundTrip('sub-leaving');
    const linked = await http.post('/api/auth/oidc/link', {
      pendingLink: r.body.pending.pendingLink,
      username: member.username,
      password: member.password,
    });
    expect(linked.status).toBe(200);
    const deleted = await http.post('/api/auth/account/delete', { password: member.password }, linked.body.accessToken);
    expect(deleted.status).toBe(200);
    const again = await roundTrip('sub-leaving');
    expect(again.body.signedIn).toBeNull();
    expect(again.body.pending).not.toBeNull();
  });

  it('refuses a forged pending link', async () => {
    const res = await http.post('/api/auth/oidc/create', { pendingLink: 'eyJhbGciOiJIUzI1NiJ9.e30.forged' });
    expect(res.status).toBe(400);
  });
});
