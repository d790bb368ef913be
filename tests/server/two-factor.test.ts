// Two-step sign-in (docs/behaviour.md §10.7a): set-up with a first code, ten recovery codes, sign-in in two steps
// with a challenge that expires and cannot be forged, codes that cannot be replayed, wrong codes that lock as wrong
// passwords do, «Запомнить этот браузер», the password for anything that weakens it, and the administrator's
// requirement. The server's clock is a manual one: codes are computed for its time, nothing sleeps.
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Res, startTestServer, type TestServer } from './harness';
import { SETUP_REQUIRED } from '../../server/auth/second-factor-gate';
import { type ManualClock, manualClock } from './manual-clock';
import { closeAll, connect } from './socket-helpers';

const WRONG_LOGIN = 'Неверный никнейм или пароль';
const LOCKED = /^Слишком много неудачных попыток\. Повторите через \d+ мин\.$/;
const RUSSIAN = /[А-Яа-яЁё]/;

let srv: TestServer;
let clock: ManualClock;
let api: ReturnType<typeof client>;
let admin: Awaited<ReturnType<ReturnType<typeof client>['user']>>;
let adminSecret: string | null = null;

beforeAll(async () => {
  // On a step boundary, so «the same step» and «the next step» are plain sums below.
  clock = manualClock(Math.ceil(Date.now() / 30_000) * 30_000);
  srv = await startTestServer({ loginMaxFailures: 3, loginMaxFailuresPerAddress: 1000 }, { clock });
  api = client(srv.url);
  admin = await api.user('admin');
});
afterAll(async () => srv?.close());

const code = (secret: string, offsetMs = 0) =>
  generateSync({ secret, epoch: Math.floor((clock.now() + offsetMs) / 1000) });
const login = (username: string, password: string, cookie?: string) =>
  api.call('POST', '/api/auth/login', { body: { username, password }, headers: cookie ? { cookie } : {} });
const second = (challenge: string, c: string, extra: object = {}, cookie?: string) =>
  api.call('POST', '/api/auth/login/second-factor', {
    body: { challenge, code: c, ...extra },
    headers: cookie ? { cookie } : {},
  });
/** The cookies a response sets, as a Cookie header would send them back. */
const cookiesOf = (res: Res) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

function expectRussian4xx(res: Res, status: number) {
  expect(res.status).toBe(status);
  expect(res.body.message).toMatch(RUSSIAN);
}

/** A fresh account with the second factor on: its secret and recovery codes. */
async function enrolled(prefix: string) {
  const u = await api.user(prefix);
  const begun = await api.post('/api/auth/two-factor/begin', {}, u.accessToken);
  expect(begun.status).toBe(200);
  const confirmed = await api.post('/api/auth/two-factor/confirm', { code: code(begun.body.secret) }, u.accessToken);
  expect(confirmed.status).toBe(200);
  // The code used to confirm is spent, and so is its step: sign-ins below start two steps later.
  clock.advance(60_000);
  return { ...u, secret: begun.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

describe('setting up', () => {
  it('shows a secret and its QR address, takes only a right code, answers ten recovery codes once', async () => {
    const u = await api.user('setup');
    expect((await api.get('/api/auth/two-factor', u.accessToken)).body).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      required: false,
    });
    const begun = await api.post('/api/auth/two-factor/begin', {}, u.accessToken);
    expect(begun.status).toBe(200);
    expect(begun.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(begun.body.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(begun.body.uri).toContain(`secret=${begun.body.secret}`);

    const wrong = await api.post('/api/auth/two-factor/confirm', { code: '000000' }, u.accessToken);
    expectRussian4xx(wrong, 400);
    expect(wrong.body.message).toBe('Неверный код');
    expect((await api.get('/api/auth/two-factor', u.accessToken)).body.enabled).toBe(false);
    expectRussian4xx(await api.post('/api/auth/two-factor/confirm', { code: '' }, u.accessToken), 400);

    const confirmed = await api.post('/api/auth/two-factor/confirm', { code: code(begun.body.secret) }, u.accessToken);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    for (const c of confirmed.body.recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await api.get('/api/auth/two-factor', u.accessToken)).body).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
      required: false,
    });
    // Nothing pending any more: a second confirmation has nothing to confirm.
    expectRussian4xx(
      await api.post('/api/auth/two-factor/confirm', { code: code(begun.body.secret) }, u.accessToken),
      400,
    );
    expectRussian4xx(await api.get('/api/auth/two-factor'), 401);
  });
});

describe('signing in with the second factor', () => {
  it('a wrong password answers as before; the right one asks for a code and gives no session', async () => {
    const u = await enrolled('wrongpw');
    const plain = await api.user('plain');
    const wrongEnrolled = await login(u.username, 'not the password');
    const wrongPlain = await login(plain.username, 'not the password');
    const wrongNobody = await login(`nobody${Date.now()}`, 'not the password');
    for (const res of [wrongEnrolled, wrongPlain, wrongNobody]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: WRONG_LOGIN });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    const right = await login(u.username, u.password);
    expect(right.status).toBe(200);
    expect(Object.keys(right.body)).toEqual(['secondFactor']);
    expect(right.body.secondFactor.challenge).toEqual(expect.any(String));
    expect(right.headers.getSetCookie()).toEqual([]);
  });

  it('takes a code of the current step or the one either side, refuses it a second time, and older ones', async () => {
    const u = await enrolled('window');
    const challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    // A code from the previous step (a phone's clock a little behind) is still taken…
    const ok = await second(challenge, code(u.secret, -30_000));
    expect(ok.status).toBe(200);
    expect(ok.body.accessToken).toEqual(expect.any(String));
    expect(ok.body.user.username).toBe(u.username);
    expect((await api.get('/api/status/me', ok.body.accessToken)).status).toBe(200);
    // …and never again, nor any code of a step up to it.
    const replay = await second(challenge, code(u.secret, -30_000));
    expectRussian4xx(replay, 400);
    expect(replay.body.message).toBe('Неверный код');
    // The current step is later: taken once.
    expect((await second(challenge, code(u.secret))).status).toBe(200);
    expectRussian4xx(await second(challenge, code(u.secret)), 400);
    // Two steps ahead is outside the window; one step ahead is inside it.
    expectRussian4xx(await second(challenge, code(u.secret, 60_000)), 400);
    expect((await second(challenge, code(u.secret, 30_000))).status).toBe(200);
    // A code 29 s later belongs to the step just used: refused, and so is anything but six digits or a code.
    clock.advance(29_000);
    expectRussian4xx(await second(challenge, code(u.secret)), 400);
    expectRussian4xx(await second(challenge, 'abc'), 400);
  });

  it('a recovery code signs in once', async () => {
    const u = await enrolled('recovery');
    const challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    const [first] = u.recoveryCodes;
    // Case and the dash do not matter.
    const ok = await second(challenge, first.toUpperCase().replace('-', ' '));
    expect(ok.status).toBe(200);
    expectRussian4xx(await second(challenge, first), 400);
    expect((await api.get('/api/auth/two-factor', u.accessToken)).body.recoveryCodesLeft).toBe(9);
    expect((await second(challenge, u.recoveryCodes[1])).status).toBe(200);
  });

  it('wrong codes lock the account as wrong passwords do', async () => {
    const u = await enrolled('lock');
    const challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    for (let i = 0; i < 3; i++) {
      const res = await second(challenge, '123456' === code(u.secret) ? '654321' : '123456');
      expect(res.status).toBe(400);
    }
    const locked = await second(challenge, code(u.secret));
    expectRussian4xx(locked, 429);
    expect(locked.body.message).toMatch(LOCKED);
    expect((await login(u.username, u.password)).body.message).toMatch(LOCKED);
    clock.advance(16 * 60_000);
    const again = (await login(u.username, u.password)).body.secondFactor.challenge;
    expect((await second(again, code(u.secret))).status).toBe(200);
  });

  it('a challenge expires after five minutes and cannot be forged', async () => {
    const u = await enrolled('expiry');
    const other = await enrolled('expiry2');
    const challenge = (await login(u.username, u.password)).body.secondFactor.challenge as string;
    const [body, tag] = challenge.split('.');
    // Another account's id in the body, the tag left as it was.
    const otherChallenge = (await login(other.username, other.password)).body.secondFactor.challenge as string;
    for (const forged of [`${otherChallenge.split('.')[0]}.${tag}`, `${body}.${tag.slice(1)}x`, 'x', `${body}`]) {
      const res = await second(forged, code(other.secret));
      expectRussian4xx(res, 401);
      expect(res.body.message).toBe('Вход истёк, введите пароль снова');
    }
    clock.advance(5 * 60_000);
    const late = await second(challenge, code(u.secret));
    expectRussian4xx(late, 401);
    expect(late.body.message).toBe('Вход истёк, введите пароль снова');
  });

  it('«Запомнить этот браузер» skips the code for 30 days, until the second factor is reset or off', async () => {
    const u = await enrolled('remember');
    const challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    const signedIn = await second(challenge, code(u.secret), { remember: true });
    expect(signedIn.status).toBe(200);
    const cookie = cookiesOf(signedIn);
    expect(cookie).toMatch(/beseda_2fa=/);
    expect(signedIn.headers.getSetCookie().find((c) => c.startsWith('beseda_2fa='))).toMatch(
      /HttpOnly; SameSite=Strict; Max-Age=2592000/,
    );
    const direct = await login(u.username, u.password, cookie);
    expect(direct.status).toBe(200);
    expect(direct.body.accessToken).toEqual(expect.any(String));
    // Without «Запомнить» no such cookie; another account is not remembered by this one's note.
    const other = await enrolled('remember2');
    const otherChallenge = (await login(other.username, other.password, cookie)).body.secondFactor.challenge;
    expect(otherChallenge).toEqual(expect.any(String));
    expect(cookiesOf(await second(otherChallenge, code(other.secret)))).not.toMatch(/beseda_2fa=/);
    // A wrong password with the note answers as any wrong password.
    expect((await login(u.username, 'nope', cookie)).body).toEqual({ message: WRONG_LOGIN });

    clock.advance(30 * 24 * 3600_000);
    expect((await login(u.username, u.password, cookie)).body.secondFactor).toBeDefined();
  });

  it('a reset forgets remembered browsers', async () => {
    const u = await enrolled('forget');
    const challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    const cookie = cookiesOf(await second(challenge, code(u.secret), { remember: true }));
    const begun = await api.post('/api/auth/two-factor/begin', { password: u.password }, u.accessToken);
    clock.advance(30_000);
    expect(
      (await api.post('/api/auth/two-factor/confirm', { code: code(begun.body.secret) }, u.accessToken)).status,
    ).toBe(200);
    expect((await login(u.username, u.password, cookie)).body.secondFactor).toBeDefined();
  });
});

describe('what weakens it needs the password', () => {
  it('turning it off', async () => {
    const u = await enrolled('off');
    expectRussian4xx(await api.post('/api/auth/two-factor/disable', {}, u.accessToken), 400);
    const wrong = await api.post('/api/auth/two-factor/disable', { password: 'nope' }, u.accessToken);
    expectRussian4xx(wrong, 400);
    expect(wrong.body.message).toBe('Неверный пароль');
    expect((await api.get('/api/auth/two-factor', u.accessToken)).body.enabled).toBe(true);
    expect((await api.post('/api/auth/two-factor/disable', { password: u.password }, u.accessToken)).status).toBe(200);
    expect((await api.get('/api/auth/two-factor', u.accessToken)).body).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      required: false,
    });
    expect((await login(u.username, u.password)).body.accessToken).toEqual(expect.any(String));
  });

  it('a reset: the old secret works until the new one is confirmed', async () => {
    const u = await enrolled('reset');
    const none = await api.post('/api/auth/two-factor/begin', {}, u.accessToken);
    expectRussian4xx(none, 400);
    expect(none.body.message).toBe('Введите пароль');
    expect((await api.post('/api/auth/two-factor/begin', { password: 'nope' }, u.accessToken)).body.message).toBe(
      'Неверный пароль',
    );
    const begun = await api.post('/api/auth/two-factor/begin', { password: u.password }, u.accessToken);
    expect(begun.status).toBe(200);
    expect(begun.body.secret).not.toBe(u.secret);
    const challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    expect((await second(challenge, code(u.secret))).status).toBe(200);
    clock.advance(30_000);
    const confirmed = await api.post('/api/auth/two-factor/confirm', { code: code(begun.body.secret) }, u.accessToken);
    expect(confirmed.status).toBe(200);
    clock.advance(30_000);
    expectRussian4xx(await second(challenge, code(u.secret)), 400);
    expect((await second(challenge, code(begun.body.secret))).status).toBe(200);
    // The old recovery codes went with the old secret.
    expectRussian4xx(await second(challenge, u.recoveryCodes[0]), 400);
  });

  it('new recovery codes replace the old ones', async () => {
    const u = await enrolled('regen');
    expectRussian4xx(await api.post('/api/auth/two-factor/recovery-codes', { password: 'nope' }, u.accessToken), 400);
    const fresh = await api.post('/api/auth/two-factor/recovery-codes', { password: u.password }, u.accessToken);
    expect(fresh.status).toBe(200);
    expect(fresh.body.recoveryCodes).toHaveLength(10);
    const challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    expectRussian4xx(await second(challenge, u.recoveryCodes[0]), 400);
    expect((await second(challenge, fresh.body.recoveryCodes[0])).status).toBe(200);
    const plain = await api.user('regenplain');
    const refused = await api.post(
      '/api/auth/two-factor/recovery-codes',
      { password: plain.password },
      plain.accessToken,
    );
    expectRussian4xx(refused, 400);
    expect(refused.body.message).toBe('Двухэтапная проверка не включена');
  });
});

describe('the secret at rest', () => {
  it('is kept encrypted under the server’s data key; a secret kept plain before still works', async () => {
    const u = await enrolled('atrest');
    const db = srv.server.app.db;
    const row = await db
      .selectFrom('two_factor')
      .select('secret')
      .where('user_id', '=', u.user.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(u.secret);
    let challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    expect((await second(challenge, code(u.secret))).status).toBe(200);

    // As a server before this kept it: the base32 secret itself.
    await db.updateTable('two_factor').set({ secret: u.secret }).where('user_id', '=', u.user.id).execute();
    clock.advance(30_000);
    challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    expect((await second(challenge, code(u.secret))).status).toBe(200);
  });
});

describe("the administrator's requirement", () => {
  it('for administrators only, then for everyone: a sign-in without a second factor is told to set it up', async () => {
    // The clock has moved days on: the administrator signs in afresh.
    const adminToken = (await login(admin.username, admin.password)).body.accessToken as string;
    const member = await api.user('member');
    const setting = (twoFactorRequired: string) => api.patch('/api/admin/settings', { twoFactorRequired }, adminToken);
    expectRussian4xx(await api.patch('/api/admin/settings', { twoFactorRequired: 'all' }, adminToken), 400);
    expectRussian4xx(
      await api.patch('/api/admin/settings', { twoFactorRequired: 'everyone' }, member.accessToken),
      403,
    );

    expect((await setting('admins')).body.settings.twoFactorRequired).toBe('admins');
    expect((await login(admin.username, admin.password)).body.twoFactorSetup).toBe(true);
    expect((await login(member.username, member.password)).body.twoFactorSetup).toBe(false);
    expect((await api.get('/api/auth/two-factor', adminToken)).body.required).toBe(true);
    expect((await api.get('/api/auth/two-factor', member.accessToken)).body.required).toBe(false);
    // The administrator has none yet: the console is closed to them too until they set one up.
    expectRussian4xx(await setting('everyone'), 403);
    expect((await setting('everyone')).body.message).toBe(SETUP_REQUIRED);
    expect((await api.get('/api/conversations', member.accessToken)).status).toBe(200);
    const begun = await api.post('/api/auth/two-factor/begin', {}, adminToken);
    expect(begun.status).toBe(200);
    adminSecret = begun.body.secret;
    expect((await api.post('/api/auth/two-factor/confirm', { code: code(begun.body.secret) }, adminToken)).status).toBe(
      200,
    );
    clock.advance(60_000);

    await setting('everyone');
    expect((await login(member.username, member.password)).body.twoFactorSetup).toBe(true);
    // Once set up, the sign-in asks for the code instead and then says nothing more is needed.
    const u = await enrolled('required');
    const challenge = (await login(u.username, u.password)).body.secondFactor.challenge;
    expect((await second(challenge, code(u.secret))).body.twoFactorSetup).toBe(false);

    await setting('nobody');
    expect((await login(member.username, member.password)).body.twoFactorSetup).toBe(false);
  });

  it('a session without the required second factor reaches only its set-up (and no socket) until it is on', async () => {
    const adminToken = await adminWithSecondFactor();
    const member = await api.user('gated');
    expect((await api.patch('/api/admin/settings', { twoFactorRequired: 'everyone' }, adminToken)).status).toBe(200);
    const signedIn = await login(member.username, member.password);
    expect(signedIn.body.twoFactorSetup).toBe(true);
    const token = signedIn.body.accessToken as string;

    // Everything else answers 403 with one Russian sentence, the token already held before as well.
    for (const path of ['/api/conversations', '/api/contacts?filter=accepted', '/api/admin/settings']) {
      const res = await api.get(path, token);
      expectRussian4xx(res, 403);
      expect(res.body.message).toBe(SETUP_REQUIRED);
    }
    expectRussian4xx(await api.get('/api/conversations', member.accessToken), 403);
    await expect(connect(srv.url, token)).rejects.toThrow(SETUP_REQUIRED);
    // What the set-up needs stays open: its own status, the set-up itself, one's user and sign-ins, passkeys.
    expect((await api.get('/api/auth/two-factor', token)).status).toBe(200);
    expect((await api.get('/api/status/me', token)).status).toBe(200);
    expect((await api.get('/api/auth/sessions', token)).status).toBe(200);
    expect((await api.get('/api/auth/passkeys', token)).status).toBe(200);
    const begun = await api.post('/api/auth/two-factor/begin', {}, token);
    expect(begun.status).toBe(200);
    expect((await api.post('/api/auth/two-factor/confirm', { code: code(begun.body.secret) }, token)).status).toBe(200);
    clock.advance(60_000);

    // Set up: the same session reaches everything, at once.
    expect((await api.get('/api/conversations', token)).status).toBe(200);
    const socket = await connect(srv.url, token);
    expect(socket.connected).toBe(true);
    closeAll();
    expect((await api.patch('/api/admin/settings', { twoFactorRequired: 'nobody' }, adminToken)).status).toBe(200);
  });

  it('for administrators only: members go on as before, an administrator with one too', async () => {
    const adminToken = await adminWithSecondFactor();
    const member = await api.user('free');
    expect((await api.patch('/api/admin/settings', { twoFactorRequired: 'admins' }, adminToken)).status).toBe(200);
    expect((await api.get('/api/conversations', member.accessToken)).status).toBe(200);
    const socket = await connect(srv.url, member.accessToken);
    expect(socket.connected).toBe(true);
    closeAll();
    expect((await api.get('/api/conversations', adminToken)).status).toBe(200);
    expect((await api.patch('/api/admin/settings', { twoFactorRequired: 'nobody' }, adminToken)).status).toBe(200);
  });
});

describe("the administrator's reset", () => {
  it('takes a lost second factor away: the password alone signs in again; only an administrator may', async () => {
    const adminToken = await adminWithSecondFactor();
    const u = await enrolled('lost');
    const listed = async () =>
      ((await api.get(`/api/admin/users?q=${u.username}`, adminToken)).body.users as { secondFactor: boolean }[])[0];
    expect((await listed()).secondFactor).toBe(true);
    expectRussian4xx(await api.post('/api/admin/users/reset-second-factor', { userId: u.user.id }, u.accessToken), 403);
    const reset = await api.post('/api/admin/users/reset-second-factor', { userId: u.user.id }, adminToken);
    expect(reset.status).toBe(200);
    expect(reset.body.user).toMatchObject({ id: u.user.id, secondFactor: false });
    expect((await listed()).secondFactor).toBe(false);
    expect((await login(u.username, u.password)).body.accessToken).toEqual(expect.any(String));
    expect((await api.get('/api/auth/two-factor', u.accessToken)).body).toMatchObject({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    expectRussian4xx(
      await api.post('/api/admin/users/reset-second-factor', { userId: 'no-such-user' }, adminToken),
      404,
    );
  });
});

/** The administrator signed in through both steps (their second factor was set up above). */
async function adminWithSecondFactor(): Promise<string> {
  const first = await login(admin.username, admin.password);
  if (first.body.accessToken) return first.body.accessToken as string;
  const secret = adminSecret as string;
  clock.advance(30_000);
  const done = await second(first.body.secondFactor.challenge, code(secret));
  expect(done.status).toBe(200);
  return done.body.accessToken as string;
}
