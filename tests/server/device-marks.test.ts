// Nobody can lock others out (docs/behaviour.md §10.7): while a script guesses wrong passwords on the whole server,
// from several real addresses (127.0.0.2…, the whole 127/8 is loopback) and with forged X-Forwarded-For headers, a
// person whose browser signed in before (it carries the device mark) signs in on the first try and without delay,
// and the attacked account still locks for guessers without the mark. The server's clock is a manual one: the
// slowdown of unknown browsers runs on it, so nothing here sleeps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFrom } from './from-address';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';

const LOCKED = /^Слишком много неудачных попыток\. Повторите через \d+ мин\.$/;
const login = (url: string, body: object, localAddress: string, forged?: string) =>
  postFrom(url, '/api/auth/login', body, {
    localAddress,
    headers: forged ? { 'x-forwarded-for': forged } : {},
  });

describe('device marks under a sign-in attack', () => {
  let srv: TestServer;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = manualClock();
    srv = await startTestServer(
      {
        loginMaxFailures: 5,
        loginMaxFailuresPerAddress: 20,
        loginMaxFailuresGlobal: 30,
        loginMaxFailuresPerDevice: 10,
      },
      { clock },
    );
  });
  afterAll(async () => srv?.close());

  it('a known browser signs in on the first try while a script guesses; the account still locks for guessers', async () => {
    const api = client(srv.url);
    const owner = await api.user('own');
    const first = await login(srv.url, { username: owner.username, password: owner.password }, '127.0.0.9');
    expect(first.status).toBe(200);
    const mark: string = first.body.deviceMark;
    expect(mark).toMatch(/^[\w-]+\.[\w-]+$/);

    // The script: waves of 20 concurrent wrong sign-ins (20 a second on the server's clock), at the owner's account
    // and at made-up names, from three real addresses with forged headers.
    let attacking = true;
    let sent = 0;
    const refusedOrWrong: number[] = [];
    const attack = (async () => {
      while (attacking) {
        const wave = Array.from({ length: 20 }, (_, i) => {
          const n = sent++;
          const name = n % 2 === 0 ? owner.username : `nobody${n}`;
          return login(
            srv.url,
            { username: name, password: 'wrong-pw' },
            `127.0.0.${2 + (i % 3)}`,
            `203.0.113.${n % 250}`,
          );
        });
        // The slowdown waits on the server's clock: move it a second per wave.
        const pump = setInterval(() => clock.advance(100), 2);
        for (const r of await Promise.all(wave)) refusedOrWrong.push(r.status);
        clearInterval(pump);
      }
    })();

    // Meanwhile the owner, from yet another address, with the mark: 20 sign-ins, each right at the first try.
    while (sent < 60) await new Promise((r) => setImmediate(r));
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const res = await login(
        srv.url,
        { username: owner.username, password: owner.password, deviceMarks: [mark] },
        '127.0.0.10',
      );
      times.push(performance.now() - t0);
      expect(res.status).toBe(200);
      expect(typeof res.body.deviceMark).toBe('string');
    }
    attacking = false;
    await attack;
    times.sort((a, b) => a - b);
    const median = (times[9] + times[10]) / 2;
    console.log(
      `known browser's sign-in during the attack (${sent} wrong sign-ins): median ${median.toFixed(1)} ms, worst ${times[19]?.toFixed(1)} ms`,
    );

    // Every guess was a 401 or a 429, never a success; the owner's account is locked for the guessing addresses…
    expect(refusedOrWrong.every((s) => s === 401 || s === 429)).toBe(true);
    for (const a of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) {
      const guess = await login(srv.url, { username: owner.username, password: owner.password }, a);
      expect(guess.status).toBe(429);
      expect(guess.body.message).toMatch(LOCKED);
    }
  });

  it('a mark for another account, or a forged one, counts for nothing; ten failures lock a mark', async () => {
    // Past every lock and the server-wide slowdown of the attack above, before anyone signs in: a held-back sign-in
    // waits on this clock.
    clock.advance(3_600_000);
    const api = client(srv.url);
    const [a, b] = await Promise.all([api.user('ma'), api.user('mb')]);
    const markA = (await login(srv.url, { username: a.username, password: a.password }, '127.0.0.20')).body.deviceMark;
    // B's guesser holding A's mark is an unknown browser: B locks after 5 from that address.
    const guesses = [];
    for (let i = 0; i < 6; i++) {
      guesses.push(
        (await login(srv.url, { username: b.username, password: 'x', deviceMarks: [markA, 'a.b'] }, '127.0.0.21'))
          .status,
      );
    }
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
    // A's mark: 10 wrong passwords lock it, whatever the address; A from elsewhere without it still signs in.
    const withMark = [];
    for (let i = 0; i < 11; i++) {
      withMark.push(
        (await login(srv.url, { username: a.username, password: 'x', deviceMarks: [markA] }, `127.0.1.${i + 1}`))
          .status,
      );
    }
    expect(withMark).toEqual([...Array(10).fill(401), 429]);
    expect((await login(srv.url, { username: a.username, password: a.password }, '127.0.0.22')).status).toBe(200);
  });

  it('a browser keeps its marks in an HttpOnly cookie of the auth routes and is known by it alone', async () => {
    clock.advance(3_600_000);
    const api = client(srv.url);
    const [c, d] = await Promise.all([api.user('mc'), api.user('md')]);
    const first = await login(srv.url, { username: c.username, password: c.password }, '127.0.0.30');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/^beseda_device=[\w.~-]+; Path=\/api\/auth; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    const jar = setCookie.split(';')[0];
    // The same browser signs into a second account: its cookie keeps both marks, the newest first.
    const second = await postFrom(
      srv.url,
      '/api/auth/login',
      { username: d.username, password: d.password },
      { localAddress: '127.0.0.30', headers: { cookie: `other=1; ${jar}` } },
    );
    const both = String(second.headers['set-cookie']).split(';')[0];
    expect(both.split('=')[1].split('~')).toEqual([second.body.deviceMark, first.body.deviceMark]);
    // Guessers lock C for unknown browsers…
    for (let i = 0; i < 5; i++) await login(srv.url, { username: c.username, password: 'x' }, '127.0.0.31');
    expect((await login(srv.url, { username: c.username, password: c.password }, '127.0.0.31')).status).toBe(429);
    // …while the browser with the cookie, and nothing in its request body, signs in.
    const known = await postFrom(
      srv.url,
      '/api/auth/login',
      { username: c.username, password: c.password },
      { localAddress: '127.0.0.31', headers: { cookie: both } },
    );
    expect(known.status).toBe(200);
    // A cookie of junk counts for nothing.
    const junk = await postFrom(
      srv.url,
      '/api/auth/login',
      { username: c.username, password: c.password },
      { localAddress: '127.0.0.31', headers: { cookie: 'beseda_device=a.b~;;~x' } },
    );
    expect(junk.status).toBe(429);
  });
});
