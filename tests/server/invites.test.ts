// «Ссылка-приглашение» over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: owner and admins create,
// list and revoke links; a person who is nobody's friend there sees the preview and joins, reading from then on (history «Скрыта»), with
// «… вступил(а) по ссылке» live; expired, used-up and revoked links answer 410; joining twice is harmless; a link
// with one use left lets exactly one of two racing people in; 20 attempts a minute per person.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, ack, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let group: string;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris] = await Promise.all(['anna', 'boris'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
  group = (
    await api.post(
      '/api/conversations',
      { participantIds: [boris.user.id], title: 'Клуб', isGroup: true },
      anna.accessToken,
    )
  ).body.conversation.id;
  await api.post(
    '/api/conversations/send',
    { conversationId: group, type: 'TEXT', content: 'до ссылки' },
    anna.accessToken,
  );
  // «Скрыта»: whoever joins reads from then on (group-history.test.ts covers «Видна»).
  await api.post('/api/conversations/history', { conversationId: group, visible: false }, anna.accessToken);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

const create = (u: TestUser, body: Record<string, unknown> = {}) =>
  api.post('/api/conversations/invites', { conversationId: group, ...body }, u.accessToken);

describe('invite links', () => {
  it('a stranger sees the preview, joins, reads from joining on, and the members see it live', async () => {
    const made = await create(anna);
    expect(made.status).toBe(200);
    const { code } = made.body.invite;
    expect(Buffer.from(code, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    const gleb = await api.user('gleb');
    const preview = await api.get(`/api/invites/${code}`, gleb.accessToken);
    expect(preview.body).toEqual({
      conversationId: group,
      title: 'Клуб',
      avatarUrl: null,
      memberCount: 2,
      member: false,
    });

    const borisSocket = await connect(srv.url, boris.accessToken);
    expect(await ack(borisSocket, 'conversation:join', group)).toEqual({ ok: true });
    const entry = next(
      borisSocket,
      'message:new',
      (p: { message: { type: string; system?: unknown } }) => p.message.type === 'SYSTEM',
    );
    const joined = await api.post(`/api/invites/${code}/join`, {}, gleb.accessToken);
    expect(joined.status).toBe(200);
    expect(joined.body.conversation.participants).toHaveLength(3);
    expect((await entry).message.system).toMatchObject({ kind: 'joined', actor: { id: gleb.user.id } });
    const seen = (await api.get(`/api/conversations/${group}/messages`, gleb.accessToken)).body.messages;
    expect(seen.map((m: { type: string }) => m.type)).toEqual(['SYSTEM']);
    // Twice is harmless: no second use, no second entry.
    expect((await api.post(`/api/invites/${code}/join`, {}, gleb.accessToken)).status).toBe(200);
    const listed = (await api.get(`/api/conversations/${group}/invites`, anna.accessToken)).body.invites;
    expect(listed.find((i: { code: string }) => i.code === code)?.uses).toBe(1);
    expect((await api.get(`/api/invites/${code}`, gleb.accessToken)).body.member).toBe(true);
  });

  it('refuses expired, used-up and revoked links with 410; only managers create, list and revoke', async () => {
    const once = (await create(anna, { maxUses: 1 })).body.invite.code;
    const [p1, p2] = await Promise.all([api.user('p1'), api.user('p2')]);
    const race = await Promise.all([p1, p2].map((p) => api.post(`/api/invites/${once}/join`, {}, p.accessToken)));
    expect(race.map((r) => r.status).sort()).toEqual([200, 410]);
    const loser = race.find((r) => r.status === 410);
    expect(loser?.body.message).toBe('Ссылка-приглашение больше не действует');

    const revoked = (await create(anna)).body.invite.code;
    expect((await api.post('/api/conversations/invites/revoke', { code: revoked }, boris.accessToken)).status).toBe(
      403,
    );
    expect((await api.post('/api/conversations/invites/revoke', { code: revoked }, anna.accessToken)).status).toBe(200);
    const late = await api.user('late');
    expect((await api.get(`/api/invites/${revoked}`, late.accessToken)).status).toBe(410);
    expect((await api.post(`/api/invites/${revoked}/join`, {}, late.accessToken)).status).toBe(410);

    const past = await create(anna, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect((await create(boris)).status).toBe(403);
    expect((await api.get(`/api/conversations/${group}/invites`, boris.accessToken)).status).toBe(403);
    expect((await create(late)).status).toBe(404);
    expect((await create(anna, { maxUses: 0 })).status).toBe(400);
    expect((await create(anna, { extra: 1 })).status).toBe(400);
    expect((await api.get('/api/invites/AAAAAAAAAAAAAAAAAAAAAAAA', late.accessToken)).status).toBe(404);
    expect((await api.get('/api/invites/bad code!', late.accessToken)).status).toBe(400);
  });

  it('allows 20 join attempts a minute per person', async () => {
    const spammer = await api.user('spam');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (
          await api.post(
            `/api/invites/AAAAAAAAAAAAAAAAAAAAAA${String(i).padStart(2, '0')}/join`,
            {},
            spammer.accessToken,
          )
        ).status,
      );
    }
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
