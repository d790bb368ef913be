// Administration over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: the first account administers,
// every /api/admin/ route refuses members (403) and signed-out callers (401), registration modes and invite codes,
// deactivation (sockets closed at once, sign-in refused, «Аккаунт отключён» for others), the last administrator kept,
// one-time reset links, and reports from «Пожаловаться» to the reporter's notice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, closeAll, connect, next, roundTrip, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let admin: TestUser;
let anna: TestUser;
let boris: TestUser;
/** Moves a row's expiry into the past (the tokens of the signed-in users would expire with a moved clock). */
const past = () => new Date(Date.now() - 1000).toISOString();
const expireInvite = (code: string) =>
  srv.server.ctx.db.updateTable('registration_invites').set({ expires_at: past() }).where('code', '=', code).execute();
const expireResetLinks = () => srv.server.ctx.db.updateTable('password_resets').set({ expires_at: past() }).execute();

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  admin = await api.user('admin');
  anna = await api.user('anna');
  boris = await api.user('boris');
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

const register = (username: string, inviteCode?: string) =>
  api.post('/api/auth/register', {
    username,
    displayName: username,
    password: 'correct horse battery',
    ...(inviteCode ? { inviteCode } : {}),
  });
const settings = (body: object, token = admin.accessToken) => api.patch('/api/admin/settings', body, token);

describe('roles', () => {
  it('makes the first account the administrator and the rest members', async () => {
    expect((await api.get('/api/status/me', admin.accessToken)).body.user.role).toBe('admin');
    expect((await api.get('/api/status/me', anna.accessToken)).body.user.role).toBe('member');
  });

  it('tells anyone before sign-in whether the next account is the first (the administrator)', async () => {
    const empty = await startTestServer();
    try {
      const fresh = client(empty.url);
      const signIn = { provider: null, passwords: true };
      expect((await fresh.get('/api/registration')).body).toEqual({ mode: 'open', firstAccount: true, signIn });
      await fresh.user('first');
      expect((await fresh.get('/api/registration')).body).toEqual({ mode: 'open', firstAccount: false, signIn });
    } finally {
      await empty.close();
    }
    expect((await api.get('/api/registration')).body.firstAccount).toBe(false);
  });

  it('refuses every admin route to members (403) and to signed-out callers (401)', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['POST', '/api/admin/users/deactivate', { userId: boris.user.id }],
      ['POST', '/api/admin/users/reactivate', { userId: boris.user.id }],
      ['POST', '/api/admin/users/end-sessions', { userId: boris.user.id }],
      ['POST', '/api/admin/users/reset-link', { userId: boris.user.id }],
      ['POST', '/api/admin/users/role', { userId: anna.user.id, role: 'admin' }],
      ['GET', '/api/admin/stats'],
      ['GET', '/api/admin/settings'],
      ['PATCH', '/api/admin/settings', { registration: 'closed' }],
      ['GET', '/api/admin/reports'],
      ['POST', '/api/admin/reports/resolve', { reportId: 'x', action: 'dismiss' }],
    ];
    for (const [method, path, body] of routes) {
      const member = await api.call(method, path, { body, token: anna.accessToken });
      expect(member.status, `${method} ${path}`).toBe(403);
      expect(member.body.message).toBe('Доступно только администраторам');
      expect((await api.call(method, path, { body })).status, `${method} ${path}`).toBe(401);
    }
    // Nothing changed: registration is still open, Boris still signs in.
    expect((await api.get('/api/registration')).body.mode).toBe('open');
    expect((await api.get('/api/status/me', boris.accessToken)).status).toBe(200);
  });

  it('promotes and demotes, never leaving the server without an administrator', async () => {
    const solo = await api.post('/api/admin/users/role', { userId: admin.user.id, role: 'member' }, admin.accessToken);
    expect(solo.status).toBe(409);
    expect(solo.body.message).toBe('Нельзя снять права с последнего администратора');
    const self = await api.post('/api/admin/users/deactivate', { userId: admin.user.id }, admin.accessToken);
    expect(self.status).toBe(400);
    expect(self.body.message).toBe('Нельзя отключить собственный аккаунт');

    const up = await api.post('/api/admin/users/role', { userId: anna.user.id, role: 'admin' }, admin.accessToken);
    expect(up.body.user.role).toBe('admin');
    expect((await api.get('/api/admin/stats', anna.accessToken)).status).toBe(200);
    const down = await api.post('/api/admin/users/role', { userId: anna.user.id, role: 'member' }, admin.accessToken);
    expect(down.body.user.role).toBe('member');
    // At once: her next admin request is refused.
    expect((await api.get('/api/admin/stats', anna.accessToken)).status).toBe(403);
  });

  it('lists and finds users with their sessions and state', async () => {
    const all = await api.get('/api/admin/users', admin.accessToken);
    expect(all.status).toBe(200);
    const mine = all.body.users.find((u: { id: string }) => u.id === anna.user.id);
    expect(mine).toMatchObject({ username: anna.username, role: 'member', state: 'active', sessions: 1 });
    const found = await api.get(
      `/api/admin/users?q=${encodeURIComponent(anna.username.toUpperCase())}`,
      admin.accessToken,
    );
    expect(found.body.users.map((u: { id: string }) => u.id)).toEqual([anna.user.id]);
    const byEblid = await api.get(`/api/admin/users?q=${boris.user.eblid}`, admin.accessToken);
    expect(byEblid.body.users.map((u: { id: string }) => u.id)).toContain(boris.user.id);

    const stats = await api.get('/api/admin/stats', admin.accessToken);
    expect(stats.body.users.total).toBeGreaterThanOrEqual(3);
    expect(stats.body.users.admins).toBe(1);
    expect(stats.body.database).toBe(srv.config.databaseUrl ? 'postgres' : 'sqlite');
    expect(stats.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('registration', () => {
  afterEach(async () => {
    await settings({ registration: 'open', membersCanInvite: false });
  });

  it('takes invite codes while «По приглашениям», and refuses used-up, expired and revoked ones', async () => {
    expect((await settings({ registration: 'invites' })).body.settings.registration).toBe('invites');
    expect((await api.get('/api/registration')).body.mode).toBe('invites');
    const none = await register('without_code');
    expect(none.status).toBe(403);
    expect(none.body.message).toBe('Регистрация только по приглашениям: введите код приглашения');
    expect((await register('wrong_code', 'nosuchcode')).body.message).toBe('Код приглашения не найден');

    const once = await api.post('/api/registration/invites', { maxUses: 1, note: 'Для Веры' }, admin.accessToken);
    expect(once.status).toBe(201);
    const code = once.body.invite.code as string;
    expect((await register('vera_by_code', code)).status).toBe(201);
    const again = await register('second_by_code', code);
    expect(again.status).toBe(403);
    expect(again.body.message).toBe('Код приглашения уже использован');

    const soon = (await api.post('/api/registration/invites', { expiresInHours: 1 }, admin.accessToken)).body.invite
      .code as string;
    await expireInvite(soon);
    expect((await register('late_by_code', soon)).body.message).toBe('Срок действия кода приглашения истёк');

    const revoked = (await api.post('/api/registration/invites', {}, admin.accessToken)).body.invite.code as string;
    expect((await api.post('/api/registration/invites/revoke', { code: revoked }, admin.accessToken)).status).toBe(200);
    expect((await register('revoked_code', revoked)).body.message).toBe('Код приглашения отозван');

    const list = (await api.get('/api/registration/invites', admin.accessToken)).body;
    const states = Object.fromEntries(list.invites.map((i: { code: string; state: string }) => [i.code, i.state]));
    expect(states).toMatchObject({ [code]: 'used', [soon]: 'expired', [revoked]: 'revoked' });
    expect(list.invites.find((i: { code: string }) => i.code === code)).toMatchObject({ uses: 1, note: 'Для Веры' });
  });

  it('lets members make codes only when allowed, and shows them only their own', async () => {
    const refused = await api.post('/api/registration/invites', {}, anna.accessToken);
    expect(refused.status).toBe(403);
    expect((await api.get('/api/registration/invites', anna.accessToken)).body.canCreate).toBe(false);
    await settings({ membersCanInvite: true });
    const made = await api.post('/api/registration/invites', {}, anna.accessToken);
    expect(made.status).toBe(201);
    const hers = (await api.get('/api/registration/invites', anna.accessToken)).body.invites;
    expect(hers.map((i: { code: string }) => i.code)).toEqual([made.body.invite.code]);
    const adminsCode = (await api.post('/api/registration/invites', {}, admin.accessToken)).body.invite.code;
    expect((await api.post('/api/registration/invites/revoke', { code: adminsCode }, anna.accessToken)).status).toBe(
      404,
    );
  });

  it('refuses everyone while «Закрыта»', async () => {
    await settings({ registration: 'closed' });
    const res = await register('closed_out');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Регистрация на этом сервере закрыта. Обратитесь к администратору');
    const bad = await settings({ registration: 'sometimes' });
    expect(bad.status).toBe(400);
    expect((await api.get('/api/admin/settings', admin.accessToken)).body.settings.registration).toBe('closed');
  });
});

describe('deactivation and reset links', () => {
  it('signs the account out everywhere at once, refuses its sign-in and shows others «Аккаунт отключён»', async () => {
    const victim = await api.user('victim');
    await befriend(api, anna, victim);
    const direct = (await api.post('/api/conversations/with', { userId: victim.user.id }, anna.accessToken)).body
      .conversation.id as string;
    const socket = await connect(srv.url, victim.accessToken);
    const annaSocket = await connect(srv.url, anna.accessToken);
    const closed = next<{ reason: string; message: string }>(socket, 'session:closed');
    const seen = next<{ userId: string; deactivated?: boolean }>(annaSocket, 'profile:update');
    const res = await api.post('/api/admin/users/deactivate', { userId: victim.user.id }, admin.accessToken);
    expect(res.body.user).toMatchObject({ state: 'deactivated', sessions: 0 });
    expect(await closed).toEqual({ reason: 'deactivated', message: 'Аккаунт отключён администратором' });
    expect(await seen).toMatchObject({ userId: victim.user.id, deactivated: true });

    expect((await api.get('/api/status/me', victim.accessToken)).status).toBe(401);
    expect((await api.post('/api/auth/refresh', { refreshToken: victim.refreshToken })).status).toBe(401);
    const login = await api.post('/api/auth/login', { username: victim.username, password: victim.password });
    expect(login.status).toBe(403);
    expect(login.body.message).toBe('Аккаунт отключён администратором');
    const entry = (await api.get('/api/conversations', anna.accessToken)).body.conversations.find(
      (e: { conversation: { id: string } }) => e.conversation.id === direct,
    );
    const them = entry.conversation.participants.find((p: { user: { id: string } }) => p.user.id === victim.user.id);
    expect(them.user.deactivated).toBe(true);

    await api.post('/api/admin/users/reactivate', { userId: victim.user.id }, admin.accessToken);
    expect((await api.post('/api/auth/login', { username: victim.username, password: victim.password })).status).toBe(
      200,
    );
  });

  it('hands over a one-time reset link that sets a new password and ends the old sign-ins', async () => {
    const forgetful = await api.user('forgetful');
    const socket = await connect(srv.url, forgetful.accessToken);
    const link = await api.post('/api/admin/users/reset-link', { userId: forgetful.user.id }, admin.accessToken);
    expect(link.status).toBe(200);
    expect(link.body.path).toMatch(/^\/reset\/[A-Za-z0-9_-]{43}$/);
    const token = (link.body.path as string).split('/').pop() as string;
    const info = await api.get(`/api/auth/reset/${token}`);
    expect(info.body).toMatchObject({ username: forgetful.username });

    const short = await api.post('/api/auth/reset', { token, password: '1' });
    expect(short.status).toBe(400);
    const closed = next(socket, 'session:closed');
    expect((await api.post('/api/auth/reset', { token, password: 'new secret words' })).status).toBe(200);
    await closed;
    expect((await api.get('/api/status/me', forgetful.accessToken)).status).toBe(401);
    const reuse = await api.post('/api/auth/reset', { token, password: 'another one here' });
    expect(reuse.status).toBe(404);
    expect(reuse.body.message).toBe('Ссылка для сброса пароля недействительна или устарела');
    expect((await api.post('/api/auth/login', { username: forgetful.username, password: 'forgetful' })).status).toBe(
      401,
    );
    expect(
      (await api.post('/api/auth/login', { username: forgetful.username, password: 'new secret words' })).status,
    ).toBe(200);
    // A link runs out after 24 hours.
    const later = await api.post('/api/admin/users/reset-link', { userId: forgetful.user.id }, admin.accessToken);
    await expireResetLinks();
    expect((await api.get(later.body.path.replace('/reset/', '/api/auth/reset/'))).status).toBe(404);
  });
});

describe('reports', () => {
  it('brings a report with its context to the queue; deleting it there deletes the message and tells the reporter', async () => {
    const [reporter, offender] = [await api.user('reporter'), await api.user('offender')];
    await befriend(api, reporter, offender);
    const direct = (await api.post('/api/conversations/with', { userId: offender.user.id }, reporter.accessToken)).body
      .conversation.id as string;
    const say = (u: TestUser, content: string) =>
      api.post('/api/conversations/send', { conversationId: direct, type: 'TEXT', content }, u.accessToken);
    await say(reporter, 'Привет');
    await say(offender, 'Ты кто такой');
    const bad = (await say(offender, 'Грубость')).body.message.id as string;

    expect(
      (await api.post('/api/reports', { messageId: bad, reason: 'abuse' }, offender.accessToken)).body.message,
    ).toBe('Нельзя пожаловаться на своё сообщение');
    expect((await api.post('/api/reports', { messageId: bad, reason: 'nonsense' }, reporter.accessToken)).status).toBe(
      400,
    );
    expect((await api.post('/api/reports', { reason: 'spam' }, reporter.accessToken)).status).toBe(400);
    const filed = await api.post(
      '/api/reports',
      { messageId: bad, reason: 'abuse', comment: 'Грубит' },
      reporter.accessToken,
    );
    expect(filed.status).toBe(200);

    const queue = (await api.get('/api/admin/reports', admin.accessToken)).body.reports;
    const report = queue.find((r: { message: { id: string } | null }) => r.message?.id === bad);
    expect(report).toMatchObject({
      reason: 'abuse',
      comment: 'Грубит',
      reporter: { id: reporter.user.id },
      target: { id: offender.user.id, deactivated: false },
      message: { text: 'Грубость', deleted: false },
    });
    expect(report.context.map((c: { text: string }) => c.text)).toEqual(['Привет', 'Ты кто такой']);

    const reporterSocket = await connect(srv.url, reporter.accessToken);
    const deleted = next<{ messageId: string }>(reporterSocket, 'message:deleted');
    const told = next<{ notice: { outcome: string; excerpt: string } }>(reporterSocket, 'report:resolved');
    const done = await api.post(
      '/api/admin/reports/resolve',
      { reportId: report.id, action: 'delete' },
      admin.accessToken,
    );
    expect(done.status).toBe(200);
    expect((await deleted).messageId).toBe(bad);
    expect((await told).notice).toMatchObject({ outcome: 'deleted', excerpt: 'Грубость' });
    await roundTrip(reporterSocket);

    const closed = (await api.get('/api/admin/reports?status=closed', admin.accessToken)).body.reports;
    expect(closed.find((r: { id: string }) => r.id === report.id)).toMatchObject({
      status: 'deleted',
      message: { text: 'Грубость', deleted: true },
    });
    expect(
      (await api.get('/api/admin/reports', admin.accessToken)).body.reports.map((r: { id: string }) => r.id),
    ).not.toContain(report.id);
    const again = await api.post(
      '/api/admin/reports/resolve',
      { reportId: report.id, action: 'dismiss' },
      admin.accessToken,
    );
    expect(again.status).toBe(400);

    const notices = (await api.get('/api/reports/notices', reporter.accessToken)).body.notices;
    expect(notices.map((n: { id: string }) => n.id)).toEqual([report.id]);
    await api.post('/api/reports/notices/seen', { ids: [report.id] }, reporter.accessToken);
    expect((await api.get('/api/reports/notices', reporter.accessToken)).body.notices).toEqual([]);
  });

  it('takes a report on a person, and deactivating there closes every open report on them', async () => {
    const [one, two, spammer] = [await api.user('one'), await api.user('two'), await api.user('spammer')];
    await api.post('/api/reports', { userId: spammer.user.id, reason: 'spam' }, one.accessToken);
    await api.post('/api/reports', { userId: spammer.user.id, reason: 'spam' }, two.accessToken);
    expect((await api.post('/api/reports', { userId: one.user.id, reason: 'spam' }, one.accessToken)).status).toBe(400);
    const open = (await api.get('/api/admin/reports', admin.accessToken)).body.reports.filter(
      (r: { target: { id: string } }) => r.target.id === spammer.user.id,
    );
    expect(open).toHaveLength(2);
    await api.post('/api/admin/reports/resolve', { reportId: open[0].id, action: 'deactivate' }, admin.accessToken);
    expect((await api.post('/api/auth/login', { username: spammer.username, password: spammer.password })).status).toBe(
      403,
    );
    for (const u of [one, two]) {
      expect((await api.get('/api/reports/notices', u.accessToken)).body.notices[0]).toMatchObject({
        outcome: 'deactivated',
        excerpt: null,
      });
    }
  });
});
