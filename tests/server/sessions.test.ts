// «Устройства» and «Сменить пароль» over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: every
// sign-in listed with its browser and system, the current one marked; ending one refuses its access token on its
// next request, closes its sockets and removes its push subscriptions; ending the others; a password change that
// ends every other sign-in, and a wrong current password that counts toward the sign-in lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ENDED } from '../../server/auth/authenticate';
import { WRONG_CURRENT_PASSWORD } from '../../server/auth/sessions.routes';
import { describeUserAgent } from '../../server/auth/sign-ins';
import { createAccountDeletion, RELEASE_AFTER_MS } from '../../server/users/account-deletion';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, closeAll, connect, next } from './socket-helpers';
import { manualClock } from './manual-clock';
import { signedDevice } from './secret-helpers';

let srv: TestServer;
let api: Api;

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  srv = await startTestServer({ loginMaxFailures: 3 });
  api = client(srv.url);
});
afterAll(async () => {
  closeAll();
  await srv?.close();
});

/** Signs in with a user agent; returns the tokens. */
async function signIn(username: string, password: string, userAgent: string) {
  const res = await api.call('POST', '/api/auth/login', {
    body: { username, password },
    headers: { 'user-agent': userAgent },
  });
  expect(res.status).toBe(200);
  return res.body as { accessToken: string; refreshToken: string };
}

type Listed = {
  id: string;
  browser: string | null;
  os: string | null;
  current: boolean;
  createdAt: string;
  lastActiveAt: string;
};
const listOf = async (token: string) => (await api.get('/api/auth/sessions', token)).body.sessions as Listed[];

describe('«Устройства»', () => {
  it('reads browser and system from the user agent', () => {
    expect(describeUserAgent(CHROME)).toEqual({ browser: 'Chrome 130', os: 'Linux' });
    expect(describeUserAgent(IPHONE)).toEqual({ browser: 'Mobile Safari 17', os: 'iOS 17.1' });
    expect(describeUserAgent(undefined)).toEqual({ browser: null, os: null });
  });

  it('lists every sign-in with browser, system and activity, the current one marked', async () => {
    const u = await api.user('lena');
    const laptop = await signIn(u.username, u.password, CHROME);
    const phone = await signIn(u.username, u.password, IPHONE);
    const seen = await listOf(laptop.accessToken);
    expect(seen).toHaveLength(3);
    const mine = seen.filter((s) => s.current);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ browser: 'Chrome 130', os: 'Linux' });
    expect(seen.some((s) => s.browser === 'Mobile Safari 17' && s.os === 'iOS 17.1' && !s.current)).toBe(true);
    for (const s of seen) expect(Date.parse(s.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));
    // From the phone, the phone is the current one.
    expect((await listOf(phone.accessToken)).find((s) => s.current)?.browser).toBe('Mobile Safari 17');
  });

  it('ending one refuses its token at once, closes its sockets and forgets its push subscriptions', async () => {
    const u = await api.user('mira');
    const lost = await signIn(u.username, u.password, IPHONE);
    const socket = await connect(srv.url, lost.accessToken);
    const closed = next(socket, 'session:closed');
    const subscribed = await api.post(
      '/api/push/subscribe',
      {
        endpoint: 'https://push.example.org/send/mira',
        keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
        showText: true,
      },
      lost.accessToken,
    );
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    const id = (await listOf(u.accessToken)).find((s) => !s.current)?.id as string;
    const before = await srv.server.ctx.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('session_id', '=', id)
      .execute();
    expect(before).toHaveLength(1);
    expect((await api.call('DELETE', `/api/auth/sessions/${id}`, { token: u.accessToken })).status).toBe(200);
    await closed;
    const refused = await api.get('/api/conversations', lost.accessToken);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(SESSION_ENDED);
    expect((await api.post('/api/auth/refresh', { refreshToken: lost.refreshToken })).status).toBe(401);
    const subs = await srv.server.ctx.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('session_id', '=', id)
      .execute();
    expect(subs).toEqual([]);
    expect((await listOf(u.accessToken)).map((s) => s.id)).not.toContain(id);
    expect((await api.get('/api/conversations', u.accessToken)).status).toBe(200);
  });

  it("answers 404 for someone else's sign-in or an unknown one, and changes nothing", async () => {
    const [a, b] = await Promise.all([api.user('nina'), api.user('olga')]);
    const bId = (await listOf(b.accessToken))[0]?.id as string;
    for (const id of [bId, 'no-such-sign-in']) {
      const res = await api.call('DELETE', `/api/auth/sessions/${id}`, { token: a.accessToken });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Сеанс не найден');
    }
    expect((await api.get('/api/conversations', b.accessToken)).status).toBe(200);
  });

  it('«Завершить все другие» keeps only this one', async () => {
    const u = await api.user('pola');
    const others = [await signIn(u.username, u.password, CHROME), await signIn(u.username, u.password, IPHONE)];
    expect((await api.post('/api/auth/sessions/end-others', {}, u.accessToken)).status).toBe(200);
    expect((await listOf(u.accessToken)).map((s) => s.current)).toEqual([true]);
    for (const o of others) expect((await api.get('/api/conversations', o.accessToken)).status).toBe(401);
  });
});

describe('«Сменить пароль»', () => {
  it('changes it, ends every other sign-in and keeps this one', async () => {
    const u = await api.user('raya');
    const other = await signIn(u.username, u.password, IPHONE);
    const res = await api.post(
      '/api/auth/password',
      { currentPassword: u.password, newPassword: 'новый пароль 2026' },
      u.accessToken,
    );
    expect(res.status).toBe(200);
    expect((await api.get('/api/conversations', other.accessToken)).status).toBe(401);
    expect((await api.get('/api/conversations', u.accessToken)).status).toBe(200);
    expect((await api.post('/api/auth/login', { username: u.username, password: u.password })).status).toBe(401);
    expect((await api.post('/api/auth/login', { username: u.username, password: 'новый пароль 2026' })).status).toBe(
      200,
    );
  });

  it('refuses a wrong current password (counted toward the sign-in lock) and a short new one, changing nothing', async () => {
    const u = await api.user('sara');
    const short = await api.post(
      '/api/auth/password',
      { currentPassword: u.password, newPassword: 'short' },
      u.accessToken,
    );
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/Пароль — не короче 8 символов/);
    for (let i = 0; i < 3; i++) {
      const wrong = await api.post(
        '/api/auth/password',
        { currentPassword: 'не тот пароль', newPassword: 'другой пароль 1' },
        u.accessToken,
      );
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe(WRONG_CURRENT_PASSWORD);
    }
    // Three failures lock the account's sign-in, here and at the door.
    expect((await api.post('/api/auth/login', { username: u.username, password: u.password })).status).toBe(429);
    const locked = await api.post(
      '/api/auth/password',
      { currentPassword: u.password, newPassword: 'другой пароль 1' },
      u.accessToken,
    );
    expect(locked.status).toBe(400);
    expect(locked.body.message).toMatch(/^Слишком много неудачных попыток/);
    expect((await api.get('/api/conversations', u.accessToken)).status).toBe(200);
  });
});

describe('«Удалить аккаунт»', () => {
  it('needs the password (a wrong one changes nothing), then ends every sign-in and frees nothing at once', async () => {
    const [u, friend] = await Promise.all([api.user('tanya'), api.user('uma')]);
    await befriend(api, u, friend);
    const conv = (await api.post('/api/conversations/with', { userId: friend.user.id }, u.accessToken)).body
      .conversation.id as string;
    await api.post(
      '/api/conversations/send',
      { conversationId: conv, type: 'TEXT', content: 'Последнее слово' },
      u.accessToken,
    );
    const other = await signIn(u.username, u.password, IPHONE);

    const wrong = await api.post('/api/auth/account/delete', { password: 'не тот' }, u.accessToken);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Неверный пароль');
    expect((await api.get('/api/conversations', other.accessToken)).status).toBe(200);

    expect((await api.post('/api/auth/account/delete', { password: u.password }, u.accessToken)).status).toBe(200);
    for (const t of [u.accessToken, other.accessToken])
      expect((await api.get('/api/conversations', t)).status).toBe(401);
    expect((await api.post('/api/auth/login', { username: u.username, password: u.password })).status).toBe(401);

    // The friend keeps the chat and its messages; the author is «Удалённый аккаунт»; the friendship is gone.
    const list = (await api.get('/api/conversations', friend.accessToken)).body.conversations as {
      conversation: {
        id: string;
        participants: { user: { id: string; displayName: string; avatarUrl: string | null } }[];
      };
    }[];
    const chat = list.find((c) => c.conversation.id === conv)?.conversation;
    expect(chat?.participants.find((p) => p.user.id === u.user.id)?.user).toMatchObject({
      displayName: 'Удалённый аккаунт',
      avatarUrl: null,
    });
    const history = (await api.get(`/api/conversations/${conv}/messages`, friend.accessToken)).body.messages as {
      content: string;
    }[];
    expect(history.map((m) => m.content)).toEqual(['Последнее слово']);
    expect((await api.get('/api/contacts', friend.accessToken)).body.contacts).toEqual([]);

    // Held for 30 days: nobody can take the name or be found by the code meanwhile.
    expect(
      (
        await api.post('/api/auth/register', {
          username: u.username,
          displayName: 'Самозванец',
          password: 'пароль 123',
        })
      ).status,
    ).toBe(409);
    expect((await api.get(`/api/contacts/search?code=${u.user.eblid}`, friend.accessToken)).body.results).toEqual([]);
  });

  it('gives the username and EBLID up after 30 days', async () => {
    const clock = manualClock();
    const deletion = createAccountDeletion({
      db: srv.server.ctx.db,
      clock,
      lists: srv.server.ctx.lists,
      realtime: srv.server.ctx.realtime,
      signIns: srv.server.app.signIns,
    });
    const u = await api.user('vika');
    await deletion.delete(u.user.id);
    expect(await deletion.releaseExpired()).toBe(0);
    clock.advance(RELEASE_AFTER_MS + 1);
    expect(await deletion.releaseExpired()).toBeGreaterThanOrEqual(1);
    const row = await srv.server.ctx.db
      .selectFrom('users')
      .select(['username_lower', 'eblid'])
      .where('id', '=', u.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ username_lower: `deleted:${u.user.id}`, eblid: `deleted:${u.user.id}` });
    expect(
      (
        await api.post('/api/auth/register', {
          username: u.username,
          displayName: 'Новая Вика',
          password: 'пароль 123',
        })
      ).status,
    ).toBe(201);
  });
});

describe('a sign-in whose refresh tokens have lapsed', () => {
  it('is ended by the hourly sweep: gone from «Устройства», its secret-chat device revoked; a used one stays', async () => {
    const clock = manualClock();
    const own = await startTestServer({}, { clock });
    try {
      const ownApi = client(own.url);
      const u = await ownApi.user('nina');
      const login = async (userAgent: string) =>
        (
          await ownApi.call('POST', '/api/auth/login', {
            body: { username: u.username, password: u.password },
            headers: { 'user-agent': userAgent },
          })
        ).body as { accessToken: string; refreshToken: string };
      const laptop = await login(CHROME);
      const phone = await login(IPHONE);
      const device = await ownApi.post(
        '/api/secret/devices',
        { keyPackages: ['AAAA'], ...(await signedDevice(ownApi, phone.accessToken)) },
        phone.accessToken,
      );
      expect(device.status, JSON.stringify(device.body)).toBe(200);
      const db = own.server.ctx.db;
      const signInsOf = async () =>
        (await db.selectFrom('sign_ins').select('id').where('user_id', '=', u.user.id).execute()).length;
      expect(await signInsOf()).toBe(3); // registration, laptop, phone

      // Nothing has lapsed yet.
      clock.advance(2 * 60_000);
      expect(await own.server.app.signIns.endLapsed()).toBe(0);
      // The laptop is used after 20 days; the phone and the registration's sign-in are not, for 35.
      clock.advance(20 * 24 * 3600_000);
      const refreshed = await ownApi.post('/api/auth/refresh', { refreshToken: laptop.refreshToken });
      expect(refreshed.status).toBe(200);
      clock.advance(15 * 24 * 3600_000);

      expect(await own.server.app.signIns.endLapsed()).toBe(2);
      expect(await signInsOf()).toBe(1);
      const row = await db
        .selectFrom('secret_devices')
        .select('revoked_at')
        .where('id', '=', device.body.device.id)
        .executeTakeFirstOrThrow();
      expect(row.revoked_at).not.toBeNull();
      // The laptop still refreshes, and a second sweep finds nothing.
      expect((await ownApi.post('/api/auth/refresh', { refreshToken: refreshed.body.refreshToken })).status).toBe(200);
      expect(await own.server.app.signIns.endLapsed()).toBe(0);
    } finally {
      await own.close();
    }
  });
});
