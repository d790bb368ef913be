// Guest links to calls over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL (docs/behaviour.md §10.40):
// members make, list and revoke links; a person without an account opens one, knocks and waits on the guests'
// socket; a member lets them in, turns them away or removes them; the guest's media token is scoped to the one room,
// publishes no data and never outlives the link; a removed guest or a revoked link loses access at once; knocks are
// limited and ring the members at most once a minute per link; a secret chat's link needs its epoch; the
// administrator turns guest links off; guests show in /metrics and «Сервер»; «Ссылки на звонки» hear of links made and
// revoked; with the embedded media server, an admission ends with the call (and not when a member only reconnects).
import { LeaveRequest, SignalRequest, SignalResponse } from '@livekit/protocol';
import { AccessToken, TokenVerifier } from 'livekit-server-sdk';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { MediaServer } from '../../server/livekit/media-rooms';
import { type Sfu, startSfu } from '../../server/sfu/index';
import { GUEST, guestServerEvents } from '../../src/contract/guests';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { secretChat } from './secret-helpers';
import { type Api, ack, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let clock: ManualClock;
let admin: TestUser;
let anna: TestUser;
let boris: TestUser;
let stranger: TestUser;
let group: string;
let room: string;
const removed: { room: string; identities: readonly string[] }[] = [];
// What the media server is asked to drop (the embedded one is attached by `npm start`, not by most tests here).
const fakeMedia: MediaServer = {
  removeParticipants(r, identities) {
    removed.push({ room: r, identities });
    return identities.length;
  },
};

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({}, { clock });
  api = client(srv.url);
  admin = await api.user('admin');
  [anna, boris, stranger] = await Promise.all(['anna', 'boris', 'eve'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
  group = (
    await api.post(
      '/api/conversations',
      { participantIds: [boris.user.id], title: 'Семья', isGroup: true },
      anna.accessToken,
    )
  ).body.conversation.id;
  room = `conv-${group}`;
  srv.server.app.mediaRooms.attach(fakeMedia);
});
afterAll(() => srv?.close());

const guestSockets: Socket[] = [];
afterEach(() => {
  closeAll();
  for (const s of guestSockets.splice(0)) s.disconnect();
});

const makeLink = async (u: TestUser = anna, r = room, hours = 24) => {
  const res = await api.post('/api/guest-links', { room: r, hours }, u.accessToken);
  expect(res.status).toBe(200);
  return res.body.link.code as string;
};
const knock = (code: string, name = 'Анна Петровна') => api.post(`/api/guest/${code}/knock`, { name });
const token = (knockId: string, secret: string) => api.post(`/api/guest/knocks/${knockId}/token`, { secret });
const verify = (jwt: string) =>
  new TokenVerifier(srv.server.ctx.secrets.livekitApiKey, srv.server.ctx.secrets.livekitApiSecret).verify(jwt);

/** The guest's socket, checked against the contract's guest events; `states()` waits for the next state heard. */
interface GuestSocket {
  socket: Socket;
  state(where?: (state: string) => boolean): Promise<{ state: string }>;
}

function guestSocket(auth: unknown): Promise<GuestSocket> {
  const s = io(`${srv.url}/guest`, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: auth as object,
  });
  guestSockets.push(s);
  // Heard from the start: the first state comes right after the handshake, before `connect` resolves here.
  const heard: { state: string }[] = [];
  const waiters: (() => void)[] = [];
  s.onAny((event: string, payload: { state: string }) => {
    const schema = guestServerEvents[event as keyof typeof guestServerEvents];
    if (!schema?.safeParse(payload).success) throw new Error(`guest event ${event} breaks the contract`);
    heard.push(payload);
    for (const w of waiters.splice(0)) w();
  });
  let read = 0;
  const state = async (where: (state: string) => boolean = () => true) => {
    const deadline = Date.now() + 3000;
    for (;;) {
      while (read < heard.length) {
        const p = heard[read++];
        if (where(p.state)) return p;
      }
      if (Date.now() > deadline) throw new Error('no guest:state within 3000 ms');
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve({ socket: s, state }));
    s.once('connect_error', reject);
  });
}

/** A guest who knocked and waits on their socket (its first state already heard). */
async function waitingGuest(code: string, name = 'Анна Петровна') {
  const res = await knock(code, name);
  expect(res.status).toBe(200);
  const { knockId, secret } = res.body as { knockId: string; secret: string };
  const guest = await guestSocket({ knockId, secret });
  expect(await guest.state()).toEqual({ state: 'waiting' });
  return { knockId, secret, ...guest };
}

describe('guest links', () => {
  it('a member makes a link of at least 128 bits for one hour to seven days, listed in «Ссылки на звонки»', async () => {
    const res = await api.post('/api/guest-links', { room, hours: 2 }, anna.accessToken);
    expect(res.status).toBe(200);
    const { link } = res.body;
    expect(Buffer.from(link.code, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(Date.parse(link.expiresAt) - clock.now()).toBe(2 * 3_600_000);
    expect(link).toMatchObject({ room, conversationId: group, createdBy: { id: anna.user.id } });
    const listed = await api.get(`/api/guest-links?room=${room}`, boris.accessToken);
    expect(listed.body.links.map((l: { code: string }) => l.code)).toContain(link.code);
    expect(listed.body.adminsOnly).toBe(false);
    expect(listed.body.enabled).toBe(true);

    for (const hours of [0, 169, 1.5]) {
      const bad = await api.post('/api/guest-links', { room, hours }, anna.accessToken);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/час|дней/);
      expect(bad.body.message).not.toMatch(/неверный тип/);
    }
    // A stranger to the conversation learns nothing of it.
    expect((await api.post('/api/guest-links', { room, hours: 1 }, stranger.accessToken)).status).toBe(404);
    expect((await api.get(`/api/guest-links?room=${room}`, stranger.accessToken)).status).toBe(404);
    expect((await api.post('/api/guest-links', { room, hours: 1 })).status).toBe(401);
  });

  it('refuses a link to a secret chat’s call that names no epoch (the encrypted case: guest-links-secret.test.ts)', async () => {
    const secret = await secretChat(api, anna, [boris]);
    const res = await api.post('/api/guest-links', { room: `conv-${secret}`, hours: 1 }, anna.accessToken);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Для звонка секретного чата укажите эпоху группы: ключ ссылки выводится из неё');
  });

  it('a guest knocks, the members are rung, a member lets them in and the token is scoped to the room', async () => {
    const code = await makeLink();
    const info = await api.get(`/api/guest/${code}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ title: 'Семья', host: anna.user.displayName });

    const borisSocket = await connect(srv.url, boris.accessToken);
    const strangerSocket = await connect(srv.url, stranger.accessToken);
    const strangerHeard = recorder(strangerSocket);
    const rung = next(borisSocket, 'guest:waiting');
    const guest = await waitingGuest(code);
    expect(await rung).toMatchObject({
      room,
      conversationId: group,
      ring: true,
      guests: [{ id: guest.knockId, name: 'Анна Петровна' }],
    });
    expect((await api.get(`/api/guest-links/waiting?room=${room}`, anna.accessToken)).body.guests).toHaveLength(1);

    // Not yet in: no token.
    const early = await token(guest.knockId, guest.secret);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Вас ещё не впустили');
    // Someone else cannot decide, nor take the token with a made-up secret.
    expect(await ack(strangerSocket, 'guest:admit', { knockId: guest.knockId })).toEqual({
      ok: false,
      message: 'Беседа не найдена',
    });
    expect((await token(guest.knockId, 'x'.repeat(43))).status).toBe(404);

    const admitted = guest.state();
    const cleared = next<{ ring: boolean; guests: unknown[] }>(borisSocket, 'guest:waiting', (p) => !p.ring);
    expect(await ack(borisSocket, 'guest:admit', { knockId: guest.knockId })).toEqual({ ok: true });
    expect(await admitted).toEqual({ state: 'admitted' });
    expect((await cleared).guests).toEqual([]);
    expect(await ack(borisSocket, 'guest:admit', { knockId: guest.knockId })).toEqual({
      ok: false,
      message: 'Гость уже не ждёт',
    });

    const res = await token(guest.knockId, guest.secret);
    expect(res.status).toBe(200);
    expect(res.body.room).toBe(room);
    const claims = await verify(res.body.token);
    expect(claims.sub).toBe(`guest:${guest.knockId}`);
    expect(claims.name).toBe('Анна Петровна');
    expect(JSON.parse(claims.metadata as string)).toEqual({ guest: true });
    expect(claims.video).toMatchObject({
      room,
      roomJoin: true,
      canPublish: true,
      canSubscribe: true,
      canPublishData: false,
    });
    expect((claims.exp as number) - (claims.nbf as number)).toBeLessThanOrEqual(600);
    // Nobody outside the conversation heard of the guest.
    await roundTrip(strangerSocket);
    expect(strangerHeard.events()).not.toContain('guest:waiting');
  });

  it('a removed guest leaves the call at once and cannot come back with the same knock', async () => {
    const code = await makeLink();
    const guest = await waitingGuest(code, 'Сантехник');
    const annaSocket = await connect(srv.url, anna.accessToken);
    expect(await ack(annaSocket, 'guest:admit', { knockId: guest.knockId })).toEqual({ ok: true });
    expect((await token(guest.knockId, guest.secret)).status).toBe(200);

    removed.length = 0;
    const gone = guest.state((state) => state !== 'admitted');
    expect(await ack(annaSocket, 'guest:remove', { knockId: guest.knockId })).toEqual({ ok: true });
    expect(await gone).toEqual({ state: 'removed' });
    expect(removed).toEqual([{ room, identities: [`guest:${guest.knockId}`] }]);
    const again = await token(guest.knockId, guest.secret);
    expect(again.status).toBe(403);
    expect(again.body.message).toBe('Вас удалили из звонка');
    await expect(guestSocket({ knockId: guest.knockId, secret: guest.secret })).rejects.toThrow(/недействительна/);
  });

  it('a turned-away guest is told so and gets no token', async () => {
    const code = await makeLink();
    const guest = await waitingGuest(code);
    const borisSocket = await connect(srv.url, boris.accessToken);
    const told = guest.state();
    expect(await ack(borisSocket, 'guest:deny', { knockId: guest.knockId })).toEqual({ ok: true });
    expect(await told).toEqual({ state: 'denied' });
    const res = await token(guest.knockId, guest.secret);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Вас не впустили в звонок');
  });

  it('a revoked link ends its guests’ access at once: waiting and admitted alike', async () => {
    const code = await makeLink();
    const waiting = await waitingGuest(code, 'Ждущий');
    const inside = await waitingGuest(code, 'Внутри');
    const annaSocket = await connect(srv.url, anna.accessToken);
    expect(await ack(annaSocket, 'guest:admit', { knockId: inside.knockId })).toEqual({ ok: true });
    removed.length = 0;
    const told = [waiting, inside].map((g) => g.state((state) => state === 'gone'));
    // Only those who may: not a stranger.
    expect((await api.post('/api/guest-links/revoke', { code }, stranger.accessToken)).status).toBe(404);
    expect((await api.post('/api/guest-links/revoke', { code }, boris.accessToken)).status).toBe(200);
    await Promise.all(told);
    expect(removed).toEqual([{ room, identities: [`guest:${inside.knockId}`] }]);
    expect((await token(inside.knockId, inside.secret)).status).toBe(410);
    const page = await api.get(`/api/guest/${code}`);
    expect(page.status).toBe(410);
    expect(page.body.message).toBe('Ссылка больше не действует');
    expect((await knock(code)).status).toBe(410);
    const listed = (await api.get(`/api/guest-links?room=${room}`, anna.accessToken)).body.links;
    expect(listed.map((l: { code: string }) => l.code)).not.toContain(code);
  });

  it('refuses bad input with clear 4xx answers', async () => {
    const code = await makeLink();
    const empty = await knock(code, '   ');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/Представьтесь, чтобы вас узнали/);
    expect((await knock(code, 'я'.repeat(GUEST.nameMax + 1))).status).toBe(400);
    expect((await api.get('/api/guest/short')).status).toBe(400);
    const unknown = await api.get(`/api/guest/${'a'.repeat(24)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Ссылка не найдена');
    expect((await api.post(`/api/guest/${code}/knock`, { name: 'Оля', extra: 1 })).status).toBe(400);
    const annaSocket = await connect(srv.url, anna.accessToken);
    expect((await ack(annaSocket, 'guest:admit', { knockId: 'nope' })).ok).toBe(false);
    expect((await ack(annaSocket, 'guest:admit', {})).ok).toBe(false);
    await expect(guestSocket({ knockId: 'x', secret: 'y' })).rejects.toThrow(/недействительна/);
    await expect(guestSocket({})).rejects.toThrow(/недействительна/);
  });

  it('in a group that chose so, only its owner and admins let guests in and hear them knock', async () => {
    expect(
      (await api.post('/api/guest-links/admission', { conversationId: group, adminsOnly: true }, boris.accessToken))
        .status,
    ).toBe(403);
    const set = await api.post(
      '/api/guest-links/admission',
      { conversationId: group, adminsOnly: true },
      anna.accessToken,
    );
    expect(set.body).toEqual({ adminsOnly: true });
    try {
      const code = await makeLink(boris);
      const borisSocket = await connect(srv.url, boris.accessToken);
      const annaSocket = await connect(srv.url, anna.accessToken);
      const borisHeard = recorder(borisSocket);
      const rung = next(annaSocket, 'guest:waiting');
      const guest = await waitingGuest(code);
      await rung;
      await roundTrip(borisSocket);
      expect(borisHeard.events()).not.toContain('guest:waiting');
      expect(await ack(borisSocket, 'guest:admit', { knockId: guest.knockId })).toEqual({
        ok: false,
        message: 'В этой группе гостей впускают только владелец и администраторы',
      });
      expect(await ack(annaSocket, 'guest:admit', { knockId: guest.knockId })).toEqual({ ok: true });
    } finally {
      await api.post('/api/guest-links/admission', { conversationId: group, adminsOnly: false }, anna.accessToken);
    }
  });

  it('a named room’s link: its maker decides, and sees only their own links', async () => {
    const code = await makeLink(stranger, 'кухня', 1);
    const makerSocket = await connect(srv.url, stranger.accessToken);
    const annaSocket = await connect(srv.url, anna.accessToken);
    const rung = next(makerSocket, 'guest:waiting');
    const guest = await waitingGuest(code);
    expect((await rung).conversationId).toBeNull();
    expect((await ack(annaSocket, 'guest:admit', { knockId: guest.knockId })).ok).toBe(false);
    expect(await ack(makerSocket, 'guest:admit', { knockId: guest.knockId })).toEqual({ ok: true });
    expect((await api.get('/api/guest-links?room=кухня', anna.accessToken)).body.links).toEqual([]);
    const claims = await verify((await token(guest.knockId, guest.secret)).body.token);
    expect(claims.video?.room).toBe('кухня');
  });

  it('a named room’s links on the /calls page: one’s own listed, revoked by their maker alone', async () => {
    const code = await makeLink(boris, 'мастерская', 1);
    const mine = await api.get(`/api/guest-links?room=${encodeURIComponent('мастерская')}`, boris.accessToken);
    expect(mine.body).toMatchObject({ adminsOnly: false, enabled: true });
    expect(mine.body.links.map((l: { code: string }) => l.code)).toEqual([code]);
    const other = await api.post('/api/guest-links/revoke', { code }, anna.accessToken);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Запрос на вход не найден');
    expect((await api.post('/api/guest-links/revoke', { code }, boris.accessToken)).status).toBe(200);
    const after = await api.get(`/api/guest-links?room=${encodeURIComponent('мастерская')}`, boris.accessToken);
    expect(after.body.links).toEqual([]);
  });

  it('«Кто впускает гостей» is a group’s choice only, made by its owner and admins', async () => {
    const direct = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body
      .conversation.id as string;
    const res = await api.post(
      '/api/guest-links/admission',
      { conversationId: direct, adminsOnly: true },
      anna.accessToken,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Выбрать, кто впускает гостей, можно только в группе');
    const outsider = await api.post(
      '/api/guest-links/admission',
      { conversationId: group, adminsOnly: true },
      stranger.accessToken,
    );
    expect(outsider.status).toBe(404);
    expect((await api.post('/api/guest-links/admission', { conversationId: group }, anna.accessToken)).status).toBe(
      400,
    );
    // A direct chat's links: either person sees them.
    const code = await makeLink(anna, `conv-${direct}`, 1);
    const listed = await api.get(`/api/guest-links?room=conv-${direct}`, boris.accessToken);
    expect(listed.body.links.map((l: { code: string }) => l.code)).toEqual([code]);
  });

  it('counts guests in /metrics and «Сервер»', async () => {
    const stats = await api.get('/api/admin/stats', admin.accessToken);
    expect(stats.status).toBe(200);
    // Admitted and still in: the first group guest, the admins-only group's and the named room's (the others were
    // removed, turned away or their link revoked).
    expect(stats.body.guests).toBe(3);
    const metrics = await fetch(`${srv.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/beseda_guests_total\{event="admitted"\} [1-9]/);
    expect(metrics).toMatch(/beseda_guests_total\{event="knocked"\} [1-9]/);
    expect(metrics).toMatch(/beseda_guest_sockets_connected \d/);
  });

  it('the administrator turns guest links off and on for the server', async () => {
    const code = await makeLink();
    expect((await api.patch('/api/admin/settings', { guestLinks: false }, anna.accessToken)).status).toBe(403);
    const off = await api.patch('/api/admin/settings', { guestLinks: false }, admin.accessToken);
    expect(off.body.settings.guestLinks).toBe(false);
    try {
      const made = await api.post('/api/guest-links', { room, hours: 1 }, anna.accessToken);
      expect(made.status).toBe(403);
      expect(made.body.message).toBe('Гостевые ссылки на звонки отключены администратором');
      expect((await api.get(`/api/guest/${code}`)).status).toBe(403);
      expect((await knock(code)).status).toBe(403);
      // «Ссылки на звонки» says so, and still lists the links (to revoke them before turning links back on).
      const listed = await api.get(`/api/guest-links?room=${room}`, anna.accessToken);
      expect(listed.body.enabled).toBe(false);
      expect(listed.body.links.map((l: { code: string }) => l.code)).toContain(code);
    } finally {
      await api.patch('/api/admin/settings', { guestLinks: true }, admin.accessToken);
    }
    expect((await knock(code)).status).toBe(200);
  });

  it('«Ссылки на звонки» hear of a link made or revoked by someone else: the room’s members, a named room’s maker', async () => {
    const borisSocket = await connect(srv.url, boris.accessToken);
    const strangerSocket = await connect(srv.url, stranger.accessToken);
    const strangerHeard = recorder(strangerSocket);
    const made = next(borisSocket, 'guest:links');
    const code = await makeLink(anna);
    expect(await made).toEqual({ room });
    const revoked = next(borisSocket, 'guest:links');
    expect((await api.post('/api/guest-links/revoke', { code }, anna.accessToken)).status).toBe(200);
    expect(await revoked).toEqual({ room });
    // A named room's list is its maker's own: only they hear of it, and a stranger nothing of the group's.
    const own = next(strangerSocket, 'guest:links');
    const named = await makeLink(stranger, 'мастерская-ссылки');
    expect(await own).toEqual({ room: 'мастерская-ссылки' });
    const ownRevoked = next(strangerSocket, 'guest:links');
    expect((await api.post('/api/guest-links/revoke', { code: named }, stranger.accessToken)).status).toBe(200);
    expect(await ownRevoked).toEqual({ room: 'мастерская-ссылки' });
    await roundTrip(strangerSocket);
    expect(strangerHeard.seen.filter((e) => e.event === 'guest:links')).toEqual([
      { event: 'guest:links', payload: { room: 'мастерская-ссылки' } },
      { event: 'guest:links', payload: { room: 'мастерская-ссылки' } },
    ]);
  });

  it('a flood of knocks is refused with 429 and rings the members once a minute per link', async () => {
    const code = await makeLink();
    const annaSocket = await connect(srv.url, anna.accessToken);
    const heard = recorder(annaSocket);
    const first = next(annaSocket, 'guest:waiting');
    for (let i = 0; i < GUEST.knocksPerMinute; i++) expect((await knock(code, `Гость ${i}`)).status).toBe(200);
    await first;
    const flood = await knock(code, 'Ещё один');
    expect(flood.status).toBe(429);
    expect(flood.body.message).toMatch(/через минуту/);
    await roundTrip(annaSocket);
    expect(heard.events().filter((e) => e === 'guest:waiting')).toHaveLength(1);

    // The minute ends: the knocks that came during it ring once, all of them listed.
    const second = next(annaSocket, 'guest:waiting');
    clock.advance(GUEST.ringEveryMs);
    const rung = await second;
    expect(rung.ring).toBe(true);
    expect(rung.guests.length).toBeGreaterThanOrEqual(GUEST.knocksPerMinute);
    // And a new minute takes knocks again.
    expect((await knock(code, 'Новый')).status).toBe(200);
  });

  it('a link dies at its expiry, and a guest’s token never outlives it', async () => {
    const code = await makeLink(anna, room, 1);
    const guest = await waitingGuest(code);
    const annaSocket = await connect(srv.url, anna.accessToken);
    expect(await ack(annaSocket, 'guest:admit', { knockId: guest.knockId })).toEqual({ ok: true });
    clock.advance(3_600_000 - 120_000);
    const res = await token(guest.knockId, guest.secret);
    expect(res.status).toBe(200);
    const claims = await verify(res.body.token);
    expect((claims.exp as number) - (claims.nbf as number)).toBeLessThanOrEqual(120);
    expect(Date.parse(res.body.expiresAt)).toBeLessThanOrEqual(clock.now() + 120_000);
    clock.advance(120_000);
    expect((await token(guest.knockId, guest.secret)).status).toBe(410);
    expect((await api.get(`/api/guest/${code}`)).status).toBe(410);
    expect((await knock(code)).status).toBe(410);
  });
});

/** A raw signalling client of the embedded media server: joined once its JoinResponse came. */
async function joinMedia(sfu: Sfu, jwt: string) {
  const ws = new WebSocket(`${sfu.url}/rtc/v1?access_token=${jwt}`);
  const heard: string[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const kind = SignalResponse.fromBinary(data as Buffer).message.case ?? '';
      heard.push(kind);
      if (kind === 'join') resolve();
    });
    ws.once('error', reject);
  });
  return {
    heard,
    /** The client hangs up, as livekit-client does. */
    leave: () => ws.send(new SignalRequest({ message: { case: 'leave', value: new LeaveRequest() } }).toBinary()),
    close: () => ws.close(),
  };
}

describe('a guest’s admission ends with the call (the embedded media server)', () => {
  let sfu: Sfu;
  const clients: { close(): void }[] = [];
  // Signed in anew: the tests above moved the server's clock past their first access tokens.
  let annaNow: TestUser;
  let borisNow: TestUser;
  const signIn = async (u: TestUser): Promise<TestUser> => {
    const res = await api.post('/api/auth/login', { username: u.username, password: u.password });
    expect(res.status).toBe(200);
    return { ...u, accessToken: res.body.accessToken };
  };
  beforeAll(async () => {
    [annaNow, borisNow] = await Promise.all([signIn(anna), signIn(boris)]);
    sfu = await startSfu({
      port: 0,
      host: '127.0.0.1',
      apiKey: srv.server.ctx.secrets.livekitApiKey,
      apiSecret: srv.server.ctx.secrets.livekitApiSecret,
      hostCandidates: ['127.0.0.1'],
      workers: 0,
    });
    srv.server.app.mediaRooms.attach(sfu);
  });
  afterAll(async () => {
    srv.server.app.mediaRooms.attach(fakeMedia);
    for (const c of clients) c.close();
    await sfu?.close();
  });

  const memberToken = (u: TestUser, r: string) => {
    const at = new AccessToken(srv.server.ctx.secrets.livekitApiKey, srv.server.ctx.secrets.livekitApiSecret, {
      identity: u.user.id,
      ttl: '5m',
    });
    at.addGrant({ room: r, roomJoin: true, canPublish: true, canSubscribe: true });
    return at.toJwt();
  };
  const join = async (jwt: string) => {
    const c = await joinMedia(sfu, jwt);
    clients.push(c);
    return c;
  };
  const inRoom = async (r: string) => (await sfu.participants(r)).map((p) => p.identity).sort();

  /** A guest let in by `member` who joined the media room beside them. */
  async function guestInCall(member: TestUser, r: string) {
    const code = await makeLink(member, r);
    const guest = await waitingGuest(code, 'Бабушка');
    const memberSocket = await connect(srv.url, member.accessToken);
    expect(await ack(memberSocket, 'guest:admit', { knockId: guest.knockId })).toEqual({ ok: true });
    await guest.state((s) => s === 'admitted');
    const res = await token(guest.knockId, guest.secret);
    expect(res.status).toBe(200);
    const media = await join(res.body.token);
    return { code, guest, media };
  }

  it('the last member leaves: after the grace the guest is told, dropped, and refused a token; a new knock works', async () => {
    const member = await join(await memberToken(annaNow, room));
    const { code, guest, media } = await guestInCall(annaNow, room);
    expect(await inRoom(room)).toEqual([anna.user.id, `guest:${guest.knockId}`].sort());

    member.leave();
    await vi.waitFor(async () => expect(await inRoom(room)).toEqual([`guest:${guest.knockId}`]));
    // Within the grace nothing changes.
    clock.advance(GUEST.callEndGraceMs - 1);
    expect((await token(guest.knockId, guest.secret)).status).toBe(200);

    const ended = guest.state((s) => s === 'ended');
    clock.advance(1);
    expect(await ended).toEqual({ state: 'ended' });
    await vi.waitFor(async () => expect(await inRoom(room)).toEqual([]));
    await vi.waitFor(() => expect(media.heard).toContain('leave'));
    const refused = await token(guest.knockId, guest.secret);
    expect(refused.status).toBe(410);
    expect(refused.body.message).toBe('Звонок завершён');
    // A page that reconnects learns the call is over, not that the link died.
    const again = await guestSocket({ knockId: guest.knockId, secret: guest.secret });
    expect(await again.state()).toEqual({ state: 'ended' });

    // The link still works for a later call: a new knock, let in anew.
    const later = await waitingGuest(code, 'Бабушка');
    const annaSocket = await connect(srv.url, annaNow.accessToken);
    expect(await ack(annaSocket, 'guest:admit', { knockId: later.knockId })).toEqual({ ok: true });
    expect((await token(later.knockId, later.secret)).status).toBe(200);
  });

  it('a member back within the grace keeps the guest in; guests alone do not keep a named room going', async () => {
    const r = 'кухня-звонок';
    const member = await join(await memberToken(borisNow, r));
    const { guest } = await guestInCall(borisNow, r);
    const heard: string[] = [];
    guest.socket.on('guest:state', (p: { state: string }) => heard.push(p.state));

    // Борис's connection drops and he comes back before the grace is over.
    member.leave();
    await vi.waitFor(async () => expect(await inRoom(r)).toEqual([`guest:${guest.knockId}`]));
    clock.advance(GUEST.callEndGraceMs - 1_000);
    const back = await join(await memberToken(borisNow, r));
    await vi.waitFor(async () => expect(await inRoom(r)).toHaveLength(2));
    clock.advance(GUEST.callEndGraceMs * 2);
    expect((await token(guest.knockId, guest.secret)).status).toBe(200);
    await roundTrip(await connect(srv.url, borisNow.accessToken));
    expect(heard).toEqual([]);

    // He hangs up for good: the call ends for the guest too.
    const ended = guest.state((s) => s === 'ended');
    back.leave();
    await vi.waitFor(async () => expect(await inRoom(r)).toEqual([`guest:${guest.knockId}`]));
    clock.advance(GUEST.callEndGraceMs);
    expect(await ended).toEqual({ state: 'ended' });
    await vi.waitFor(async () => expect(await inRoom(r)).toEqual([]));
    expect((await token(guest.knockId, guest.secret)).status).toBe(410);
  });
});
