// What an account leaves behind must not outlive what it belonged to, over the real server on SQLite and (with
// TEST_PG_URL) PostgreSQL: a deleted account shows nothing that identified the person in other people's lists; an
// export's download link stops with the sign-in it was handed to; a password change ends pending reset links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let admin: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  // The first account of an empty server administers it (it hands out reset links below).
  admin = await api.user('admin');
});
afterAll(async () => srv?.close());

describe('a deleted account', () => {
  it('shows no username, EBLID, picture, bio or last-seen time in anyone’s conversation list', async () => {
    const viewer = await api.user('viewer');
    const gone = await api.user('gone');
    const third = await api.user('third');
    await befriend(api, viewer, gone);
    await befriend(api, viewer, third);
    const profile = await api.patch('/api/status/me', { bio: 'Люблю чай', avatarUrl: 'emoji:🙂' }, gone.accessToken);
    expect(profile.status).toBe(200);
    expect((await api.post('/api/conversations/with', { userId: gone.user.id }, viewer.accessToken)).status).toBe(200);
    const group = await api.post(
      '/api/conversations',
      { participantIds: [gone.user.id, third.user.id], title: 'Группа' },
      viewer.accessToken,
    );
    expect(group.status).toBe(200);

    const deleted = await api.post('/api/auth/account/delete', { password: gone.password }, gone.accessToken);
    expect(deleted.status).toBe(200);

    for (const who of [viewer, third]) {
      const list = await api.get('/api/conversations', who.accessToken);
      expect(list.status).toBe(200);
      const shown = list.body.conversations
        .flatMap((e: { conversation: { participants: { user: { id: string } }[] } }) => e.conversation.participants)
        .map((p: { user: { id: string } }) => p.user)
        .filter((u: { id: string }) => u.id === gone.user.id);
      expect(shown.length).toBe(who === viewer ? 2 : 1);
      for (const u of shown) {
        expect(u).toEqual({
          id: gone.user.id,
          username: '',
          displayName: 'Удалённый аккаунт',
          avatarUrl: null,
          status: 'OFFLINE',
          lastSeenAt: null,
          eblid: '',
          bio: null,
          customStatus: null,
          deleted: true,
        });
      }
      const text = JSON.stringify(list.body);
      expect(text).not.toContain(gone.username);
      expect(text).not.toContain(`"eblid":"${gone.user.eblid}"`);
      expect(text).not.toContain('Люблю чай');
    }
  });

  it('shows the same in the list of people one has blocked', async () => {
    const blocker = await api.user('blocker');
    const gone = await api.user('gone2');
    expect((await api.post('/api/users/block', { userId: gone.user.id }, blocker.accessToken)).status).toBe(200);
    expect((await api.post('/api/auth/account/delete', { password: gone.password }, gone.accessToken)).status).toBe(
      200,
    );
    const blocked = await api.get('/api/users/blocked', blocker.accessToken);
    expect(blocked.status).toBe(200);
    expect(blocked.body.users).toEqual([
      expect.objectContaining({ id: gone.user.id, username: '', eblid: '', deleted: true }),
    ]);
    expect(JSON.stringify(blocked.body)).not.toContain(gone.username);
  });
});

type Status = { id: string; status: string; downloadUrl: string | null };

/** Polls the status until the build is over (the build runs on the server's own time). */
async function ready(token: string, id: string): Promise<Status> {
  for (let i = 0; i < 500; i++) {
    const res = await api.get(`/api/export/${id}`, token);
    expect(res.status).toBe(200);
    if (res.body.export.status !== 'building') return res.body.export;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the export never finished');
}

describe('an export’s download link', () => {
  it('stops with the sign-in it was handed to, not with the user’s other sign-ins', async () => {
    const u = await api.user('exp');
    const second = (await api.post('/api/auth/login', { username: u.username, password: u.password })).body;
    const third = (await api.post('/api/auth/login', { username: u.username, password: u.password })).body;
    const started = await api.post('/api/export', undefined, u.accessToken);
    expect(started.status).toBe(202);
    const first = await ready(u.accessToken, started.body.export.id);
    expect(first.status).toBe('ready');
    const linkFirst = first.downloadUrl as string;
    const linkSecond = (await ready(second.accessToken, first.id)).downloadUrl as string;
    expect((await fetch(srv.url + linkFirst)).status).toBe(200);

    // Signed out: that sign-in's link is refused, with a reason; the other sign-in's link still works.
    expect((await api.post('/api/auth/logout', { refreshToken: u.refreshToken })).status).toBe(200);
    const refused = await fetch(srv.url + linkFirst);
    expect(refused.status).toBe(410);
    expect((await refused.json()).message).toMatch(
      /^Ссылка больше не действует: сеанс, в котором она получена, завершён/,
    );
    expect((await fetch(srv.url + linkSecond)).status).toBe(200);

    // Ended from «Устройства» on another device: the same.
    const sessions = (await api.get('/api/auth/sessions', third.accessToken)).body.sessions as {
      id: string;
      current: boolean;
    }[];
    for (const s of sessions.filter((x) => !x.current)) {
      expect((await api.call('DELETE', `/api/auth/sessions/${s.id}`, { token: third.accessToken })).status).toBe(200);
    }
    expect((await fetch(srv.url + linkSecond)).status).toBe(410);
    // The sign-in still standing downloads by bearer token and by its own link.
    const linkThird = (await ready(third.accessToken, first.id)).downloadUrl as string;
    expect((await fetch(srv.url + linkThird)).status).toBe(200);
  });
});

describe('a password-reset link', () => {
  it('ends when the password is changed before it is used', async () => {
    const u = await api.user('forgot');
    const link = await api.post('/api/admin/users/reset-link', { userId: u.user.id }, admin.accessToken);
    expect(link.status).toBe(200);
    const token = (link.body.path as string).replace('/reset/', '');
    expect((await api.get(`/api/auth/reset/${token}`)).status).toBe(200);

    const changed = await api.post(
      '/api/auth/password',
      { currentPassword: u.password, newPassword: 'my own new password' },
      u.accessToken,
    );
    expect(changed.status).toBe(200);

    const info = await api.get(`/api/auth/reset/${token}`);
    expect(info.status).toBe(404);
    expect(info.body.message).toBe('Ссылка для сброса пароля недействительна или устарела');
    const used = await api.post('/api/auth/reset', { token, password: 'the reset password' });
    expect(used.status).toBe(404);
    expect(used.body.message).toBe('Ссылка для сброса пароля недействительна или устарела');
    // The password the user chose stands.
    expect((await api.post('/api/auth/login', { username: u.username, password: 'the reset password' })).status).toBe(
      401,
    );
    expect((await api.post('/api/auth/login', { username: u.username, password: 'my own new password' })).status).toBe(
      200,
    );
  });
});
