// Sign-in throttling over real HTTP (docs/behaviour.md §10.7), on SQLite and (with TEST_PG_URL) PostgreSQL: parallel
// guesses cannot pass the limit before the lock lands; the lock holds the guessing (username, address) pair and the
// address, so the owner still signs in from elsewhere; an address is limited across usernames, and the whole server
// across addresses. The client address is the one the server reads (X-Forwarded-For: the tests speak as the reverse
// proxy on this machine, TRUST_PROXY=loopback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_DELAY_MAX_MS, slowdownMs } from '../../server/auth/login-throttle';
import { client, type Res, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';

const LOCKED = /^Слишком много неудачных попыток\. Повторите через \d+ мин\.$/;
const WRONG = 'Неверный никнейм или пароль';

type Api = ReturnType<typeof client>;
const from = (api: Api, address: string, username: string, password: string) =>
  api.call('POST', '/api/auth/login', { body: { username, password }, headers: { 'x-forwarded-for': address } });

const statuses = (answers: Res[]) => answers.map((a) => a.status);
const count = (answers: Res[], status: number) => answers.filter((a) => a.status === status).length;

function expectRefusals(answers: Res[]): void {
  for (const a of answers) {
    if (a.status === 429) expect(a.body.message).toMatch(LOCKED);
    else if (a.status === 401) expect(a.body.message).toBe(WRONG);
  }
}

describe('the (username, address) pair', () => {
  let srv: TestServer;
  let api: Api;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = manualClock();
    srv = await startTestServer(
      {
        loginMaxFailures: 5,
        loginMaxFailuresPerAddress: 1000,
        loginMaxFailuresGlobal: 10_000,
        loginLockSec: 900,
        trustProxy: ['loopback'],
      },
      { clock },
    );
    api = client(srv.url);
  });
  afterAll(async () => srv?.close());

  it('50 parallel wrong passwords: exactly the limit is checked, the rest refused, none passes', async () => {
    const u = await api.user('par');
    const answers = await Promise.all(Array.from({ length: 50 }, () => from(api, '10.0.0.1', u.username, 'wrong-pw')));
    expect(statuses(answers).every((s) => s === 401 || s === 429)).toBe(true);
    expect(count(answers, 401)).toBe(5);
    expect(count(answers, 429)).toBe(45);
    expectRefusals(answers);
    // The lock holds the right password from there too…
    const locked = await from(api, '10.0.0.1', u.username, u.password);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(LOCKED);
    // …not the owner elsewhere, and not another name from the same address.
    expect((await from(api, '10.0.0.2', u.username, u.password)).status).toBe(200);
    const other = await api.user('bys');
    expect((await from(api, '10.0.0.1', other.username, other.password)).status).toBe(200);
    // The password check of «Сменить пароль» from the locked address is refused the same way (400, as before).
    const signedIn = (await from(api, '10.0.0.2', u.username, u.password)).body;
    const change = await api.call('POST', '/api/auth/password', {
      body: { currentPassword: u.password, newPassword: 'another password' },
      token: signedIn.accessToken,
      headers: { 'x-forwarded-for': '10.0.0.1' },
    });
    expect(change.status).toBe(400);
    expect(change.body.message).toMatch(LOCKED);
    // The lock ends after LOGIN_LOCK_SECONDS.
    clock.advance(900_000 + 1);
    expect((await from(api, '10.0.0.1', u.username, u.password)).status).toBe(200);
  });

  it('the right password sent among 50 parallel wrong ones does not slip in past the limit', async () => {
    const u = await api.user('mix');
    const wrong = Array.from({ length: 50 }, () => from(api, '10.0.1.1', u.username, 'wrong-pw'));
    const right = from(api, '10.0.1.1', u.username, u.password);
    const answers = await Promise.all([...wrong, right]);
    const last = answers[50] as Res;
    const failed = answers.slice(0, 50);
    expect(failed.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    expectRefusals(failed);
    // At most the limit of checks ran: the right one only gets in as one of them, never past them.
    expect(count(failed, 401) + (last.status === 200 ? 1 : 0)).toBeLessThanOrEqual(5);
    expect([200, 429]).toContain(last.status);
    if (last.status === 429) {
      expect(count(failed, 401)).toBe(5);
      expect((await from(api, '10.0.1.1', u.username, u.password)).status).toBe(429);
    }
    expect((await from(api, '10.0.1.2', u.username, u.password)).status).toBe(200);
  });
});

describe('the address', () => {
  let srv: TestServer;
  let api: Api;
  beforeAll(async () => {
    srv = await startTestServer({
      loginMaxFailures: 3,
      loginMaxFailuresPerAddress: 10,
      loginMaxFailuresGlobal: 10_000,
      trustProxy: ['loopback'],
    });
    api = client(srv.url);
  });
  afterAll(async () => srv?.close());

  it('guessing many usernames from one address locks the address after its limit, not the accounts', async () => {
    const u = await api.user('addr');
    const names = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? u.username : `nobody-${i}`));
    const answers = await Promise.all(names.map((n) => from(api, '10.1.0.1', n, 'wrong-pw')));
    expect(statuses(answers).every((s) => s === 401 || s === 429)).toBe(true);
    expect(count(answers, 401)).toBe(10);
    expectRefusals(answers);
    const locked = await from(api, '10.1.0.1', u.username, u.password);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(LOCKED);
    expect((await from(api, '10.1.0.2', u.username, u.password)).status).toBe(200);
  });
});

describe('the whole server', () => {
  let srv: TestServer;
  let api: Api;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = manualClock();
    srv = await startTestServer(
      { loginMaxFailures: 100, loginMaxFailuresPerAddress: 100, loginMaxFailuresGlobal: 15, trustProxy: ['loopback'] },
      { clock },
    );
    api = client(srv.url);
  });
  afterAll(async () => srv?.close());

  it('past the server-wide limit unknown browsers are slowed on the server clock, never refused for it', async () => {
    const u = await api.user('glob');
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => from(api, `10.2.${i}.1`, `guess-${i}`, 'wrong-pw')),
    );
    expect(statuses(answers)).toEqual(Array(15).fill(401));
    // The owner from a browser the server does not know: held back until the server's clock has moved on.
    let answered = false;
    const slowed = from(api, '10.3.0.1', u.username, u.password).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    clock.advance(GLOBAL_DELAY_MAX_MS);
    expect((await slowed).status).toBe(200);
    expect(slowdownMs(15, 15)).toBe(100);
    expect(slowdownMs(1000, 15)).toBe(GLOBAL_DELAY_MAX_MS);
  });
});
