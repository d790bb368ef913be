// One's own status (docs/behaviour.md §10.44) against the real server: what the route accepts and refuses, the
// status where profiles are returned, profile:update to whoever sees the user, and the clearing at its time on the
// server's injected clock — by the scheduler's sweep (server/scheduled/scheduler.ts), once across two processes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { customStatusSweep } from '../../server/users/custom-status';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { redisAvailable, redisUrl } from './redis-probe';
import { type Api, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

const MIN = 60_000;
const withRedis = await redisAvailable();
/** Tokens that outlive the hours these tests move the clocks by. */
const LONG = { accessTokenTtlSec: 7 * 24 * 3600 };
type Status = { emoji: string; text: string; expiresAt: string | null } | null;

const set = (api: Api, u: TestUser, body: unknown) => api.post('/api/status/custom', body, u.accessToken);
const clear = (api: Api, u: TestUser) => api.call('DELETE', '/api/status/custom', { token: u.accessToken });
const mine = async (api: Api, u: TestUser): Promise<Status> =>
  (await api.get('/api/status/me', u.accessToken)).body.user.customStatus;
/** The status of `who` as `viewer`'s conversation list shows it (the direct chat's and the group's participants). */
async function seenInList(api: Api, viewer: TestUser, who: TestUser): Promise<Status[]> {
  const list = (await api.get('/api/conversations', viewer.accessToken)).body.conversations as {
    conversation: { participants: { user: { id: string; customStatus?: Status } }[] };
  }[];
  return list.flatMap((e) =>
    e.conversation.participants.filter((p) => p.user.id === who.user.id).map((p) => p.user.customStatus ?? null),
  );
}

describe('a status of one’s own on one server', () => {
  let srv: TestServer;
  let api: Api;
  let clock: ManualClock;
  let alice: TestUser;
  let bob: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    clock = manualClock(Date.parse('2026-03-02T10:00:00Z'));
    srv = await startTestServer(LONG, { clock });
    api = client(srv.url);
    [alice, bob, stranger] = await Promise.all([api.user('alice'), api.user('bob'), api.user('stranger')]);
    await befriend(api, alice, bob);
    await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken);
  });
  afterAll(async () => {
    closeAll();
    await srv?.close();
  });

  it.each([
    [{ emoji: '🌴', text: 'x'.repeat(81), clearAfter: 'never' }, /не длиннее 80/],
    [{ emoji: 'ab', text: 'В отпуске', clearAfter: 'never' }, /один эмодзи/],
    [{ emoji: '🌴🌴', text: 'В отпуске', clearAfter: 'never' }, /один эмодзи/],
    [{ emoji: '🌴', text: 'В отпуске', clearAfter: 'tomorrow' }, /из списка/],
    [{ emoji: '🌴', text: 'В отпуске', clearAfter: 3600 }, /из списка/],
    [{ emoji: '🌴', text: 'В отпуске' }, /из списка/],
    [{ emoji: '', text: '   ', clearAfter: '1h' }, /эмодзи или текст/],
    [{ emoji: '🌴', text: 'a\u0000b', clearAfter: '1h' }, /недопустимый символ/],
    [{ emoji: '🌴', text: 'ок', clearAfter: 'today', timezoneOffset: 900 }, /Часовой пояс/],
    [{ emoji: '🌴', text: 'ок', clearAfter: 'never', expiresAt: '2030-01-01T00:00:00Z' }, /[а-яё]/i],
  ])('refuses %j with 400 and a Russian message, and keeps what was set', async (body, message) => {
    expect((await set(api, stranger, { emoji: '🐢', text: 'как был', clearAfter: 'never' })).status).toBe(200);
    const r = await set(api, stranger, body);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(message);
    expect(r.body.message).toMatch(/[а-яё]/i);
    expect(await mine(api, stranger)).toEqual({ emoji: '🐢', text: 'как был', expiresAt: null });
  });

  it('refuses without a sign-in', async () => {
    expect((await api.post('/api/status/custom', { emoji: '🌴', text: 'x', clearAfter: 'never' })).status).toBe(401);
    expect((await api.call('DELETE', '/api/status/custom')).status).toBe(401);
  });

  it('sets a status, tells whoever sees the user, and shows it where profiles are returned', async () => {
    const bobSocket = await connect(srv.url, bob.accessToken);
    const strangerSocket = await connect(srv.url, stranger.accessToken);
    const heard = recorder(strangerSocket);
    const told = next(bobSocket, 'profile:update', (p) => p.userId === alice.user.id);
    const r = await set(api, alice, { emoji: '🌴', text: '  В отпуске до понедельника ', clearAfter: 'never' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const status = { emoji: '🌴', text: 'В отпуске до понедельника', expiresAt: null };
    expect(r.body.user.customStatus).toEqual(status);
    expect(await told).toMatchObject({ userId: alice.user.id, customStatus: status });
    expect(await mine(api, alice)).toEqual(status);
    expect(await seenInList(api, bob, alice)).toEqual([status]);
    const friends = (await api.get('/api/contacts', bob.accessToken)).body.contacts as {
      friend: { id: string; customStatus?: Status };
    }[];
    expect(friends.find((c) => c.friend.id === alice.user.id)?.friend.customStatus).toEqual(status);
    // Someone who shares nothing with her hears nothing; presence is untouched.
    await roundTrip(strangerSocket);
    expect(heard.events()).not.toContain('profile:update');
    expect(r.body.user.status).toBe('ONLINE');
    // Text alone and emoji alone are statuses too.
    expect((await set(api, alice, { emoji: '', text: 'Работаю', clearAfter: 'never' })).body.user.customStatus).toEqual(
      { emoji: '', text: 'Работаю', expiresAt: null },
    );
    expect((await set(api, alice, { emoji: '🤒', text: '', clearAfter: 'never' })).body.user.customStatus).toEqual({
      emoji: '🤒',
      text: '',
      expiresAt: null,
    });
  });

  it('«Сбросить» clears it and tells the others', async () => {
    await set(api, alice, { emoji: '🎧', text: 'Не отвлекать', clearAfter: 'never' });
    const bobSocket = await connect(srv.url, bob.accessToken);
    const told = next(bobSocket, 'profile:update', (p) => p.userId === alice.user.id);
    const r = await clear(api, alice);
    expect(r.status).toBe(200);
    expect(r.body.user.customStatus).toBeNull();
    expect((await told).customStatus).toBeNull();
    expect(await seenInList(api, bob, alice)).toEqual([null]);
    // Clearing nothing is no error.
    expect((await clear(api, alice)).status).toBe(200);
  });

  it('computes «Сбросить через» on the server’s clock, «Сегодня» at the chooser’s midnight', async () => {
    const at = (ms: number) => new Date(clock.now() + ms).toISOString();
    const expiry = async (clearAfter: string, timezoneOffset?: number) =>
      (await set(api, stranger, { emoji: '⏳', text: 'проверка', clearAfter, timezoneOffset })).body.user.customStatus
        .expiresAt;
    expect(await expiry('30m')).toBe(at(30 * MIN));
    expect(await expiry('1h')).toBe(at(60 * MIN));
    expect(await expiry('4h')).toBe(at(240 * MIN));
    expect(await expiry('week')).toBe(at(7 * 24 * 60 * MIN));
    expect(await expiry('never')).toBeNull();
    const now = new Date(clock.now()).toISOString().slice(0, 10);
    expect(await expiry('today')).toBe(new Date(Date.parse(`${now}T00:00:00Z`) + 24 * 60 * MIN).toISOString());
    // Moscow (UTC+3, offset −180): midnight there is 21:00 UTC.
    expect(await expiry('today', -180)).toBe(`${now}T21:00:00.000Z`);
  });

  it('is cleared by the server at its time and the clearing is pushed', async () => {
    const r = await set(api, alice, { emoji: '🍕', text: 'Обедаю', clearAfter: '30m' });
    expect(r.body.user.customStatus.expiresAt).toBe(new Date(clock.now() + 30 * MIN).toISOString());
    const bobSocket = await connect(srv.url, bob.accessToken);
    const cleared = next(bobSocket, 'profile:update', (p) => p.userId === alice.user.id && p.customStatus === null);
    clock.advance(30 * MIN - 1_000);
    expect(await mine(api, alice)).not.toBeNull();
    // The scheduler's pass ran at 29:59 and armed itself for 30:00; keep the clock moving until it clears.
    await vi.waitFor(async () => {
      clock.advance(1_000);
      expect(await mine(api, alice)).toBeNull();
    });
    expect((await cleared).userId).toBe(alice.user.id);
    expect(await seenInList(api, bob, alice)).toEqual([null]);
  });

  it('goes with a deleted account: no longer kept, told as cleared', async () => {
    const gone = await api.user('gone');
    await befriend(api, gone, bob);
    await set(api, gone, { emoji: '🚀', text: 'Улетаю', clearAfter: '1h' });
    const bobSocket = await connect(srv.url, bob.accessToken);
    const told = next(bobSocket, 'profile:update', (p) => p.userId === gone.user.id);
    const r = await api.post('/api/auth/account/delete', { password: gone.password }, gone.accessToken);
    expect(r.status).toBe(200);
    expect((await told).customStatus).toBeNull();
    const row = await srv.server.ctx.db
      .selectFrom('users')
      .select(['custom_status_emoji', 'custom_status_text', 'custom_status_expires_at'])
      .where('id', '=', gone.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ custom_status_emoji: '', custom_status_text: '', custom_status_expires_at: null });
  });

  it('the sweep clears a status exactly at its time, once, and never one set again meanwhile', async () => {
    const db = srv.server.ctx.db;
    const sent: { userIds: readonly string[]; payload: unknown }[] = [];
    const sweepClock = manualClock(clock.now());
    const sweep = customStatusSweep({
      db,
      clock: sweepClock,
      realtime: { toUsers: (userIds, _event, payload) => sent.push({ userIds, payload }) },
      lists: { changed: () => {} },
    });
    await set(api, alice, { emoji: '🏃', text: 'Бегу', clearAfter: '1h' });
    await set(api, bob, { emoji: '📚', text: 'Читаю', clearAfter: '4h' });
    const due = Date.parse((await mine(api, alice))?.expiresAt ?? '');
    expect(await sweep.nextAt()).toBe(due);
    sweepClock.advance(due - sweepClock.now() - 1);
    await sweep.run();
    expect(sent).toEqual([]);
    expect(await mine(api, alice)).not.toBeNull();
    sweepClock.advance(1);
    await sweep.run();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.userIds).toEqual(expect.arrayContaining([alice.user.id, bob.user.id]));
    expect(sent[0]?.payload).toMatchObject({ userId: alice.user.id, customStatus: null });
    await sweep.run();
    expect(sent).toHaveLength(1);
    expect(await mine(api, bob)).toMatchObject({ text: 'Читаю' });
    expect(await sweep.nextAt()).toBe(Date.parse((await mine(api, bob))?.expiresAt ?? ''));
    await clear(api, bob);
  });
});

describe.skipIf(!withRedis)('a status of one’s own behind Redis', () => {
  it('is cleared once by one of two processes, and the clearing reaches a socket on the other', async () => {
    const start = Date.parse('2026-03-02T10:00:00Z');
    const c1 = manualClock(start);
    const c2 = manualClock(start);
    const one = await startTestServer({ ...LONG, redisUrl }, { clock: c1 });
    const two = await startTestServer(
      { ...LONG, redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl },
      { clock: c2 },
    );
    try {
      const api = client(one.url);
      const [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
      await befriend(api, alice, bob);
      const bobSocket = await connect(two.url, bob.accessToken);
      const heard = recorder(bobSocket);
      const r = await set(api, alice, { emoji: '🚗', text: 'В дороге', clearAfter: '1h' });
      expect(r.status).toBe(200);
      await vi.waitFor(() => expect(heard.events()).toContain('profile:update'));
      await vi.waitFor(
        async () => {
          c1.advance(5 * MIN);
          c2.advance(5 * MIN);
          expect(await mine(api, alice)).toBeNull();
        },
        { timeout: 5_000 },
      );
      await vi.waitFor(() =>
        expect(heard.seen.filter((s) => (s.payload as { customStatus?: Status }).customStatus === null)).toHaveLength(
          1,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await roundTrip(bobSocket);
      expect(heard.seen.filter((s) => (s.payload as { customStatus?: Status }).customStatus === null)).toHaveLength(1);
    } finally {
      closeAll();
      await two.close();
      await one.close();
    }
  });
});
