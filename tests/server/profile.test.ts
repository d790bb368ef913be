import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEblid } from '../../server/users/eblid';
import { client, startTestServer, type TestServer } from './harness';

let srv: TestServer;
let http: ReturnType<typeof client>;
beforeAll(async () => {
  srv = await startTestServer();
  http = client(srv.url);
});
afterAll(() => srv?.close());

describe('profile', () => {
  it('reads every own field', async () => {
    const u = await http.user('me');
    const res = await http.get('/api/status/me', u.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({
      id: u.user.id,
      username: u.username,
      displayName: u.user.displayName,
      avatarUrl: null,
      status: 'ONLINE',
      lastSeenAt: null,
      eblid: u.user.eblid,
      bio: null,
      customStatus: null,
      email: null,
      // The first account of the suite's server is its administrator.
      role: expect.stringMatching(/^(admin|member)$/),
      messagePrivacy: 'groups',
    });
  });

  it('updates displayName, bio and status, and avatarUrl on its own', async () => {
    const u = await http.user('upd');
    const res = await http.patch(
      '/api/status/me',
      { displayName: '  Новое имя ', bio: 'Люблю чай', status: 'DND' },
      u.accessToken,
    );
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ displayName: 'Новое имя', bio: 'Люблю чай', status: 'DND' });
    const av = await http.patch('/api/status/me', { avatarUrl: 'emoji:🐱' }, u.accessToken);
    expect(av.body.user.avatarUrl).toBe('emoji:🐱');
    const up = await http.patch('/api/status/me', { avatarUrl: '/uploads/abc123.webp' }, u.accessToken);
    expect(up.body.user.avatarUrl).toBe('/uploads/abc123.webp');
    await http.patch('/api/status/me', { avatarUrl: 'emoji:🐱' }, u.accessToken);
    const again = await http.get('/api/status/me', u.accessToken);
    expect(again.body.user).toMatchObject({
      displayName: 'Новое имя',
      bio: 'Люблю чай',
      status: 'DND',
      avatarUrl: 'emoji:🐱',
    });
  });

  it.each([
    [{ status: 'BUSY' }],
    [{ displayName: 'x' }],
    [{ bio: 'x'.repeat(501) }],
    [{ username: 'renamed' }],
    [{ eblid: '0000' }],
    [{}],
    [{ displayName: 5 }],
    [{ avatarUrl: 'javascript:alert(1)' }],
    [{ avatarUrl: '/uploads/../secrets.json' }],
  ])('refuses %j with 400 and leaves the profile as it was', async (body) => {
    const u = await http.user('bad');
    const res = await http.patch('/api/status/me', body, u.accessToken);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    const me = await http.get('/api/status/me', u.accessToken);
    expect(me.body.user).toMatchObject({
      username: u.username,
      displayName: u.user.displayName,
      eblid: u.user.eblid,
      status: 'ONLINE',
    });
  });

  it('needs a session', async () => {
    expect((await http.patch('/api/status/me', { bio: 'x' })).status).toBe(401);
  });
});

describe('EBLID space', () => {
  it('hands out the last free code, then refuses registration with a clear message', async () => {
    const own = await startTestServer();
    try {
      const h = client(own.url);
      const db = own.server.ctx.db;
      const now = new Date().toISOString();
      const free = '7342';
      const rows = [];
      for (let n = 0; n < 10_000; n++) {
        const code = formatEblid(n);
        if (code === free) continue;
        rows.push({
          id: `filler-${code}`,
          username: `filler${code}`,
          username_lower: `filler${code}`,
          display_name: 'Filler',
          password_hash: 'x',
          email: null,
          email_lower: null,
          avatar_url: null,
          status: 'OFFLINE',
          last_seen_at: null,
          eblid: code,
          bio: null,
          created_at: now,
          role: 'member',
        });
      }
      for (let i = 0; i < rows.length; i += 500)
        await db
          .insertInto('users')
          .values(rows.slice(i, i + 500))
          .execute();

      const last = await h.post('/api/auth/register', {
        username: 'lastone',
        displayName: 'Последний',
        password: 'password1',
      });
      expect(last.status).toBe(201);
      expect(last.body.user.eblid).toBe(free);

      const over = await h.post('/api/auth/register', {
        username: 'toomany',
        displayName: 'Лишний',
        password: 'password1',
      });
      expect(over.status).toBe(409);
      expect(over.body.message).toMatch(/EBLID закончились/);
    } finally {
      await own.close();
    }
  });
});
