import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';

let srv: TestServer;
let http: ReturnType<typeof client>;
beforeAll(async () => {
  srv = await startTestServer({ codeSearchPerMinute: 6 });
  http = client(srv.url);
});
afterAll(() => srv?.close());

type U = Awaited<ReturnType<ReturnType<typeof client>['user']>>;
const list = async (u: U, filter: string) =>
  (await http.get(`/api/contacts?filter=${filter}`, u.accessToken)).body.contacts;

describe('friend requests', () => {
  it('add by EBLID → incoming for the addressee, outgoing for the requester → accept → friends on both sides', async () => {
    const a = await http.user('a');
    const b = await http.user('b');
    const add = await http.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
    expect(add.status).toBe(200);
    expect(add.body.contact).toMatchObject({ status: 'PENDING', direction: 'outgoing', friend: { id: b.user.id } });

    const incoming = await list(b, 'incoming');
    expect(incoming).toHaveLength(1);
    expect(incoming[0]).toMatchObject({
      id: add.body.contact.id,
      status: 'PENDING',
      direction: 'incoming',
      friend: { id: a.user.id },
    });
    expect(await list(a, 'outgoing')).toHaveLength(1);
    expect(await list(a, 'incoming')).toHaveLength(0);
    expect(await list(b, 'accepted')).toHaveLength(0);

    const acc = await http.post(
      '/api/contacts/respond',
      { contactId: incoming[0].id, action: 'accept' },
      b.accessToken,
    );
    expect(acc.status).toBe(200);
    expect(acc.body.contact).toMatchObject({ status: 'ACCEPTED', friend: { id: a.user.id } });
    expect((await list(a, 'accepted'))[0]).toMatchObject({
      status: 'ACCEPTED',
      direction: 'outgoing',
      friend: { id: b.user.id },
    });
    expect((await list(b, 'accepted'))[0]).toMatchObject({
      status: 'ACCEPTED',
      direction: 'incoming',
      friend: { id: a.user.id },
    });
    expect(await list(a, 'outgoing')).toHaveLength(0);
    expect(await list(b, 'all')).toHaveLength(1);
  });

  it('friends carry public fields only', async () => {
    const a = await http.user('pa');
    const b = await http.user('pb');
    await http.post('/api/contacts/add', { identifier: b.username }, a.accessToken);
    const [c] = await list(b, 'incoming');
    expect(Object.keys(c.friend).sort()).toEqual([
      'avatarUrl',
      'bio',
      'customStatus',
      'displayName',
      'eblid',
      'id',
      'lastSeenAt',
      'status',
      'username',
    ]);
  });

  it('adds by username (any case, optional @) too', async () => {
    const a = await http.user('na');
    const b = await http.user('nb');
    const res = await http.post('/api/contacts/add', { identifier: `@${b.username.toUpperCase()}` }, a.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.contact.friend.id).toBe(b.user.id);
  });

  it('adds by e-mail where the user has one', async () => {
    const a = await http.user('ea');
    const b = await http.user('eb');
    await srv.server.ctx.db
      .updateTable('users')
      .set({ email: 'B.Person@Example.org', email_lower: 'b.person@example.org' })
      .where('id', '=', b.user.id)
      .execute();
    const res = await http.post('/api/contacts/add', { identifier: 'b.person@EXAMPLE.org' }, a.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.contact.friend.id).toBe(b.user.id);
    const none = await http.post('/api/contacts/add', { identifier: 'nobody@example.org' }, a.accessToken);
    expect(none.status).toBe(404);
  });

  it('adding someone who already asked you accepts their request', async () => {
    const a = await http.user('ma');
    const b = await http.user('mb');
    await http.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
    const back = await http.post('/api/contacts/add', { identifier: a.user.eblid }, b.accessToken);
    expect(back.status).toBe(200);
    expect(back.body.contact.status).toBe('ACCEPTED');
    expect(await list(a, 'accepted')).toHaveLength(1);
  });

  it('refuses oneself, duplicates, existing friends and unknown identifiers with clear 4xx', async () => {
    const a = await http.user('da');
    const b = await http.user('db');
    const self = await http.post('/api/contacts/add', { identifier: a.user.eblid }, a.accessToken);
    expect(self.status).toBe(400);
    expect(self.body.message).toMatch(/самого себя/);
    await http.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
    const dup = await http.post('/api/contacts/add', { identifier: b.username }, a.accessToken);
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('Запрос уже отправлен');
    const [inc] = await list(b, 'incoming');
    await http.post('/api/contacts/respond', { contactId: inc.id, action: 'accept' }, b.accessToken);
    const again = await http.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Вы уже друзья');
    const unknown = await http.post('/api/contacts/add', { identifier: 'no-such-user-anywhere' }, a.accessToken);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Пользователь не найден');
    const blank = await http.post('/api/contacts/add', { identifier: '   ' }, a.accessToken);
    expect(blank.status).toBe(400);
  });

  it('reject removes the request', async () => {
    const a = await http.user('ra');
    const b = await http.user('rb');
    await http.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
    const [inc] = await list(b, 'incoming');
    const rej = await http.post('/api/contacts/respond', { contactId: inc.id, action: 'reject' }, b.accessToken);
    expect(rej.status).toBe(200);
    expect(rej.body.contact).toBeNull();
    expect(await list(a, 'all')).toHaveLength(0);
    expect(await list(b, 'all')).toHaveLength(0);
    // And a new request may be sent afterwards.
    expect((await http.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken)).status).toBe(200);
  });

  it('either side removes an accepted contact', async () => {
    for (const remover of ['requester', 'addressee'] as const) {
      const a = await http.user('xa');
      const b = await http.user('xb');
      await http.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
      const [inc] = await list(b, 'incoming');
      await http.post('/api/contacts/respond', { contactId: inc.id, action: 'accept' }, b.accessToken);
      const who = remover === 'requester' ? a : b;
      expect((await http.post('/api/contacts/remove', { contactId: inc.id }, who.accessToken)).status).toBe(200);
      expect(await list(a, 'all')).toHaveLength(0);
      expect(await list(b, 'all')).toHaveLength(0);
    }
  });
});

describe('authorisation', () => {
  it('a stranger cannot see, accept, reject or remove someone else’s request', async () => {
    const a = await http.user('sa');
    const b = await http.user('sb');
    const stranger = await http.user('ss');
    const add = await http.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
    const id = add.body.contact.id;
    expect(await list(stranger, 'all')).toHaveLength(0);
    for (const action of ['accept', 'reject']) {
      const res = await http.post('/api/contacts/respond', { contactId: id, action }, stranger.accessToken);
      expect(res.status).toBe(404);
    }
    expect((await http.post('/api/contacts/remove', { contactId: id }, stranger.accessToken)).status).toBe(404);
    expect((await list(b, 'incoming'))[0].id).toBe(id);
  });

  it('the requester cannot accept their own request, and the addressee cannot "remove" a pending one', async () => {
    const a = await http.user('oa');
    const b = await http.user('ob');
    const add = await http.post('/api/contacts/add', { identifier: b.user.eblid }, a.accessToken);
    const self = await http.post(
      '/api/contacts/respond',
      { contactId: add.body.contact.id, action: 'accept' },
      a.accessToken,
    );
    expect(self.status).toBe(403);
    const rm = await http.post('/api/contacts/remove', { contactId: add.body.contact.id }, b.accessToken);
    expect(rm.status).toBe(403);
    expect((await list(b, 'incoming'))[0].status).toBe('PENDING');
    // The requester may withdraw it.
    expect((await http.post('/api/contacts/remove', { contactId: add.body.contact.id }, a.accessToken)).status).toBe(
      200,
    );
    expect(await list(b, 'all')).toHaveLength(0);
  });

  it('every contacts route needs a session', async () => {
    expect((await http.get('/api/contacts?filter=all')).status).toBe(401);
    expect((await http.get('/api/contacts/search?code=1234')).status).toBe(401);
    expect((await http.post('/api/contacts/add', { identifier: '1234' })).status).toBe(401);
    expect((await http.post('/api/contacts/respond', { contactId: 'x', action: 'accept' })).status).toBe(401);
    expect((await http.post('/api/contacts/remove', { contactId: 'x' })).status).toBe(401);
  });
});

describe('search by EBLID', () => {
  it('finds a user by code with public fields only, never oneself, and is rate-limited per user', async () => {
    const a = await http.user('qa');
    const b = await http.user('qb');
    const found = await http.get(`/api/contacts/search?code=${b.user.eblid}`, a.accessToken);
    expect(found.status).toBe(200);
    expect(found.body.results).toHaveLength(1);
    expect(found.body.results[0]).toMatchObject({ id: b.user.id, eblid: b.user.eblid });
    expect(found.body.results[0]).not.toHaveProperty('email');
    const self = await http.get(`/api/contacts/search?code=${a.user.eblid}`, a.accessToken);
    expect(self.body.results).toEqual([]);
    for (const bad of ['12', '12345', 'abcd', '']) {
      const res = await http.get(`/api/contacts/search?code=${bad}`, a.accessToken);
      expect(res.status).toBe(400);
    }
    // 6 per minute in this server; this user has spent 6 (the 4 invalid ones count too), the next is refused.
    const limited = await http.get(`/api/contacts/search?code=${b.user.eblid}`, a.accessToken);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Слишком много/);
    // Another user still may search.
    expect((await http.get(`/api/contacts/search?code=${b.user.eblid}`, b.accessToken)).status).toBe(200);
  });

  it('refuses an unknown filter', async () => {
    const a = await http.user('fa');
    const res = await http.get('/api/contacts?filter=blocked', a.accessToken);
    expect(res.status).toBe(400);
  });
});
