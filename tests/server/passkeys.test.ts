// Passkeys (docs/behaviour.md §10.7b) against the real server, with real WebAuthn answers made by a software
// authenticator (software-authenticator.ts: an ES256 key, CBOR attestation «none»): adding one with the password, a
// sign-in without a username that issues the same session as a password's (and «Устройства» naming the passkey), the
// passkey as the second step after the password, every challenge taken once and only before it expires, answers for
// another origin, without the person verified, with a counter gone back or for someone else's account refused with
// one Russian message, and rename and removal. Runs on SQLite, and on PostgreSQL with TEST_PG_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Res, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { type SoftwareAuthenticator, softwareAuthenticator } from './software-authenticator';

const RUSSIAN = /[А-Яа-яЁё]/;
const REFUSED = 'Ключ доступа не подошёл. Попробуйте ещё раз или войдите с паролем';

let srv: TestServer;
let clock: ManualClock;
let api: ReturnType<typeof client>;
let admin: User;
type User = Awaited<ReturnType<ReturnType<typeof client>['user']>>;

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({}, { clock });
  api = client(srv.url);
  // The first account administers the server.
  admin = await api.user('admin');
});
afterAll(async () => srv?.close());

function expectRussian4xx(res: Res, status: number, message?: string) {
  expect(res.status).toBe(status);
  expect(res.body.message).toMatch(RUSSIAN);
  if (message) expect(res.body.message).toBe(message);
}

/** Adds a passkey to `u` on `device` as «Безопасность» does: options with the password, the browser, the answer. */
async function addPasskey(u: User, device: SoftwareAuthenticator, name = 'Ноутбук') {
  const begun = await api.post('/api/auth/passkeys/register/options', { password: u.password }, u.accessToken);
  expect(begun.status).toBe(200);
  const added = await api.post(
    '/api/auth/passkeys/register',
    { name, credential: device.create(begun.body.options) },
    u.accessToken,
  );
  expect(added.status).toBe(200);
  return added.body.passkey as { id: string; name: string };
}

const signInOptions = async (challenge?: string) => {
  const res = await api.post('/api/auth/passkeys/sign-in/options', challenge ? { challenge } : {});
  expect(res.status).toBe(200);
  return res.body.options;
};
const signIn = (body: object) => api.post('/api/auth/passkeys/sign-in', body);

describe('adding a passkey', () => {
  it('needs the password, asks for a discoverable key, keeps the key under its name', async () => {
    const u = await api.user('add');
    const device = softwareAuthenticator(srv.url);
    expectRussian4xx(await api.post('/api/auth/passkeys/register/options', {}, u.accessToken), 400);
    expectRussian4xx(
      await api.post('/api/auth/passkeys/register/options', { password: 'не тот' }, u.accessToken),
      400,
      'Неверный пароль',
    );
    expect((await api.post('/api/auth/passkeys/register/options', { password: u.password })).status).toBe(401);

    const begun = await api.post('/api/auth/passkeys/register/options', { password: u.password }, u.accessToken);
    const options = begun.body.options;
    expect(options.rp).toEqual({ id: '127.0.0.1', name: 'Беседа' });
    expect(options.user.name).toBe(u.username);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true });
    expect(options.attestation).toBe('none');
    const answer = device.create(options);
    const added = await api.post(
      '/api/auth/passkeys/register',
      { name: ' Ноутбук ', credential: answer },
      u.accessToken,
    );
    expect(added.status).toBe(200);
    expect(added.body.passkey).toMatchObject({ name: 'Ноутбук', lastUsedAt: null });

    // The same answer again: its challenge is spent.
    expectRussian4xx(
      await api.post('/api/auth/passkeys/register', { name: 'Ещё', credential: answer }, u.accessToken),
      400,
      'Не удалось добавить ключ доступа. Попробуйте ещё раз',
    );
    const listed = await api.get('/api/auth/passkeys', u.accessToken);
    expect(listed.body.passkeys).toEqual([added.body.passkey]);
    // A second add offers the kept key as one not to make again.
    const again = await api.post('/api/auth/passkeys/register/options', { password: u.password }, u.accessToken);
    expect(again.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([answer.id]);
  });

  it('refuses an answer for another account’s challenge, another origin, an expired challenge, a bad shape', async () => {
    const a = await api.user('adda');
    const b = await api.user('addb');
    const device = softwareAuthenticator(srv.url);
    const forA = (await api.post('/api/auth/passkeys/register/options', { password: a.password }, a.accessToken)).body;
    expectRussian4xx(
      await api.post(
        '/api/auth/passkeys/register',
        { name: 'Чужой', credential: device.create(forA.options) },
        b.accessToken,
      ),
      400,
    );
    const forB = (await api.post('/api/auth/passkeys/register/options', { password: b.password }, b.accessToken)).body;
    const elsewhere = device.create(forB.options, { origin: 'https://evil.example' });
    expectRussian4xx(
      await api.post('/api/auth/passkeys/register', { name: 'Фишинг', credential: elsewhere }, b.accessToken),
      400,
    );
    const late = (await api.post('/api/auth/passkeys/register/options', { password: b.password }, b.accessToken)).body;
    clock.advance(5 * 60_000 + 1);
    expectRussian4xx(
      await api.post(
        '/api/auth/passkeys/register',
        { name: 'Поздно', credential: device.create(late.options) },
        b.accessToken,
      ),
      400,
    );
    expectRussian4xx(
      await api.post('/api/auth/passkeys/register', { name: 'Ключ', credential: { id: 'x' } }, b.accessToken),
      400,
    );
    expectRussian4xx(
      await api.post(
        '/api/auth/passkeys/register',
        { name: '   ', credential: device.create(late.options) },
        b.accessToken,
      ),
      400,
      'name: Введите название ключа',
    );
    expect((await api.get('/api/auth/passkeys', b.accessToken)).body.passkeys).toEqual([]);
  });
});

describe('signing in without a password', () => {
  it('issues a session like a password’s, named in «Устройства», and moves the counter', async () => {
    const u = await api.user('pwless');
    const device = softwareAuthenticator(srv.url);
    const key = await addPasskey(u, device, 'Телефон');
    const options = await signInOptions();
    // No username typed: no list of keys, the person must be verified.
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(options.rpId).toBe('127.0.0.1');
    const res = await signIn({ credential: device.get(options) });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(u.user.id);
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body.refreshToken).toEqual(expect.any(String));
    expect(res.headers.getSetCookie().some((c) => c.startsWith('beseda_device='))).toBe(true);

    const me = await api.get('/api/status/me', res.body.accessToken);
    expect(me.status).toBe(200);
    const refreshed = await api.post('/api/auth/refresh', { refreshToken: res.body.refreshToken });
    expect(refreshed.status).toBe(200);
    const sessions = (await api.get('/api/auth/sessions', u.accessToken)).body.sessions as {
      current: boolean;
      passkey: string | null;
    }[];
    expect(sessions.map((s) => s.passkey).sort()).toEqual(['Телефон', null].sort());
    expect(sessions.find((s) => s.current)?.passkey).toBeNull();
    const listed = (await api.get('/api/auth/passkeys', u.accessToken)).body.passkeys;
    expect(listed[0]).toMatchObject({ id: key.id, lastUsedAt: expect.any(String) });
  });

  it('refuses a replayed answer, an unknown key, another origin, no verification, a counter gone back, a late one', async () => {
    const u = await api.user('refuse');
    const device = softwareAuthenticator(srv.url);
    await addPasskey(u, device);
    const first = device.get(await signInOptions());
    expect((await signIn({ credential: first })).status).toBe(200);
    expectRussian4xx(await signIn({ credential: first }), 400, REFUSED);

    const stranger = softwareAuthenticator(srv.url);
    stranger.create({ challenge: 'x', rp: {}, user: { id: 'nobody' } });
    expectRussian4xx(await signIn({ credential: stranger.get(await signInOptions()) }), 400, REFUSED);
    expectRussian4xx(
      await signIn({ credential: device.get(await signInOptions(), { origin: 'https://evil.example' }) }),
      400,
      REFUSED,
    );
    expectRussian4xx(
      await signIn({ credential: device.get(await signInOptions(), { userVerified: false }) }),
      400,
      REFUSED,
    );
    // A cloned authenticator reports a counter the server has already seen.
    expectRussian4xx(await signIn({ credential: device.get(await signInOptions(), { counter: 1 }) }), 400, REFUSED);
    const made = await signInOptions();
    clock.advance(5 * 60_000 + 1);
    expectRussian4xx(await signIn({ credential: device.get(made) }), 400, REFUSED);
    // A challenge the server never made.
    expectRussian4xx(await signIn({ credential: device.get({ challenge: 'bm90LWEtY2hhbGxlbmdl' }) }), 400, REFUSED);
    expect((await signIn({ credential: device.get(await signInOptions(), { counter: 100 }) })).status).toBe(200);
  });

  it('a deactivated account is refused with its own message', async () => {
    const u = await api.user('deact');
    const device = softwareAuthenticator(srv.url);
    await addPasskey(u, device);
    const off = await api.post('/api/admin/users/deactivate', { userId: u.user.id }, admin.accessToken);
    if (off.status !== 200) return expect.fail(`deactivate: ${off.status} ${JSON.stringify(off.body)}`);
    expectRussian4xx(await signIn({ credential: device.get(await signInOptions()) }), 403);
  });
});

describe('the passkey as the second step', () => {
  it('follows the right password, for this account’s keys only, and may remember the browser', async () => {
    const u = await api.user('second');
    const other = await api.user('secondo');
    const device = softwareAuthenticator(srv.url);
    const otherDevice = softwareAuthenticator(srv.url);
    await addPasskey(u, device);
    await addPasskey(other, otherDevice);

    const login = await api.post('/api/auth/login', { username: u.username, password: u.password });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ secondFactor: { challenge: expect.any(String), totp: false, passkey: true } });
    const challenge = login.body.secondFactor.challenge as string;
    const options = await signInOptions(challenge);
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual(device.ids());

    // Someone else's passkey does not finish this account's sign-in.
    const theirs = otherDevice.get(options, {}, otherDevice.ids()[0]);
    expectRussian4xx(await signIn({ credential: theirs, challenge }), 400, REFUSED);
    // A usernameless challenge does not serve the second step, nor the reverse.
    expectRussian4xx(await signIn({ credential: device.get(await signInOptions()), challenge }), 400, REFUSED);
    expectRussian4xx(await signIn({ credential: device.get(await signInOptions(challenge)) }), 400, REFUSED);
    // A forged challenge starts again from the password.
    expectRussian4xx(await signIn({ credential: device.get(options), challenge: `${challenge}x` }), 401);

    const done = await signIn({ credential: device.get(await signInOptions(challenge)), challenge, remember: true });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(u.user.id);
    const cookie = done.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(cookie).toContain('beseda_2fa=');
    const again = await api.call('POST', '/api/auth/login', {
      body: { username: u.username, password: u.password },
      headers: { cookie },
    });
    expect(again.body.accessToken).toEqual(expect.any(String));
  });

  it('the options for the second step need a live challenge of an account with a passkey', async () => {
    expectRussian4xx(await api.post('/api/auth/passkeys/sign-in/options', { challenge: 'forged.challenge' }), 401);
    const u = await api.user('nokeys');
    const totpLess = await api.post('/api/auth/login', { username: u.username, password: u.password });
    // No second factor at all: signed in straight away, no challenge to use.
    expect(totpLess.body.accessToken).toEqual(expect.any(String));
  });
});

describe('renaming and removing', () => {
  it('renames one’s own, removes with the password; another account’s is not found', async () => {
    const u = await api.user('manage');
    const other = await api.user('managex');
    const device = softwareAuthenticator(srv.url);
    const key = await addPasskey(u, device);
    const res = await signIn({ credential: device.get(await signInOptions()) });
    expect(res.status).toBe(200);

    const renamed = await api.patch(`/api/auth/passkeys/${key.id}`, { name: 'Рабочий ноутбук' }, u.accessToken);
    expect(renamed.status).toBe(200);
    expect(renamed.body.passkey.name).toBe('Рабочий ноутбук');
    expectRussian4xx(await api.patch(`/api/auth/passkeys/${key.id}`, { name: 'Моё' }, other.accessToken), 404);
    expectRussian4xx(await api.patch(`/api/auth/passkeys/${key.id}`, { name: 'x'.repeat(65) }, u.accessToken), 400);
    const sessions = (await api.get('/api/auth/sessions', u.accessToken)).body.sessions as { passkey: string | null }[];
    expect(sessions.some((s) => s.passkey === 'Рабочий ноутбук')).toBe(true);

    expectRussian4xx(
      await api.post(`/api/auth/passkeys/${key.id}/remove`, { password: u.password }, other.accessToken),
      404,
      'Ключ доступа не найден',
    );
    expectRussian4xx(
      await api.post(`/api/auth/passkeys/${key.id}/remove`, { password: 'не тот' }, u.accessToken),
      400,
      'Неверный пароль',
    );
    expect(
      (await api.post(`/api/auth/passkeys/${key.id}/remove`, { password: u.password }, u.accessToken)).status,
    ).toBe(200);
    expect((await api.get('/api/auth/passkeys', u.accessToken)).body.passkeys).toEqual([]);
    // Gone: it signs nobody in, and the password alone signs in again.
    expectRussian4xx(await signIn({ credential: device.get(await signInOptions()) }), 400, REFUSED);
    const login = await api.post('/api/auth/login', { username: u.username, password: u.password });
    expect(login.body.accessToken).toEqual(expect.any(String));
  });
});
