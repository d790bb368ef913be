// Web Push over real HTTP (server/push/): a push service stand-in on loopback (allowed by the test-only setting
// pushAllowLoopback) receives what the server pushes, and the test decrypts it with the subscription's private
// key (RFC 8291) and checks the VAPID signature (RFC 8292). Also: only https endpoints outside the server's
// network are accepted, a redirect is never followed, 404/410 delete the subscription, pushes per device and
// conversation are coalesced, sign-out removes the sign-in's subscriptions, at most 10 per user.
import { importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_REFUSED, endpointRefusal } from '../../server/push/endpoint-policy';
import { PUSH_ENDPOINT_TAKEN } from '../../server/push/push.plugin';
import { PUSH } from '../../src/contract/notification';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { type PushRequest, type PushService, startPushService, subscriberKeys } from './push-service';
import { type Api, ack, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let ps: PushService;
let alice: TestUser;
let bob: TestUser;
let ab: string;
let n = 0;
let clock: ManualClock;

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({ pushAllowLoopback: true }, { clock });
  api = client(srv.url);
  ps = await startPushService();
  [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
  await befriend(api, alice, bob);
  ab = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation.id;
});
afterAll(async () => {
  closeAll();
  await srv?.close();
  await ps?.close();
});

/** Subscribes `u`'s browser at a fresh path of the stand-in; returns the path and the keys to decrypt with. */
async function subscribe(u: TestUser, opts: { showText?: boolean; path?: string } = {}) {
  const path = opts.path ?? `/push/${++n}`;
  const sub = subscriberKeys();
  const r = await api.post(
    '/api/push/subscribe',
    { endpoint: ps.url + path, keys: sub.keys, showText: opts.showText ?? true },
    u.accessToken,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { path, ...sub };
}

const send = (from: TestUser, conversationId: string, content: string, type: 'TEXT' = 'TEXT') =>
  api.post('/api/conversations/send', { conversationId, content, type }, from.accessToken).then((r) => {
    expect(r.status).toBe(200);
    return r.body.message;
  });

const subscriptionsOf = (userId: string) =>
  srv.server.ctx.db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'session_id'])
    .where('user_id', '=', userId)
    .execute();

/** The VAPID claims of a push request, verified with the key GET /api/push/key hands browsers. */
async function vapidClaims(req: PushRequest, publicKey: string) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(String(req.headers.authorization));
  expect(m, String(req.headers.authorization)).not.toBeNull();
  expect(m![2]).toBe(publicKey);
  const raw = Buffer.from(publicKey, 'base64url');
  // An uncompressed P-256 point as SPKI (the fixed prefix of such keys), for jose.
  const spki = Buffer.concat([Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex'), raw]);
  const key = await importSPKI(
    `-----BEGIN PUBLIC KEY-----\n${spki.toString('base64')}\n-----END PUBLIC KEY-----`,
    'ES256',
  );
  const { payload } = await jwtVerify(m![1], key, { algorithms: ['ES256'] });
  return payload;
}

describe('subscribing', () => {
  it('hands out the VAPID public key (65-byte P-256 point) and keeps it across restarts in secrets.json', async () => {
    const r = await api.get('/api/push/key', alice.accessToken);
    expect(r.status).toBe(200);
    expect(Buffer.from(r.body.publicKey, 'base64url')).toHaveLength(65);
    expect(srv.server.ctx.secrets.vapidPublicKey).toBe(r.body.publicKey);
    expect((await api.get('/api/push/key')).status).toBe(401);
  });

  it('refuses http endpoints, internal addresses and malformed keys with a Russian 400', async () => {
    const keys = subscriberKeys().keys;
    for (const [endpoint, message] of [
      ['http://10.0.0.1/push/x', ENDPOINT_REFUSED.notHttps],
      ['https://10.0.0.1/push/x', ENDPOINT_REFUSED.internal],
      ['https://192.168.1.5/push/x', ENDPOINT_REFUSED.internal],
      ['https://[::ffff:10.0.0.1]/push/x', ENDPOINT_REFUSED.internal],
      ['https://metadata.internal/x', ENDPOINT_REFUSED.internal],
      ['ftp://push.example.org/x', ENDPOINT_REFUSED.notHttps],
      ['https://user:pw@push.example.org/x', ENDPOINT_REFUSED.invalid],
    ]) {
      const r = await api.post('/api/push/subscribe', { endpoint, keys, showText: true }, alice.accessToken);
      expect(r.status, endpoint).toBe(400);
      expect(r.body.message, endpoint).toBe(message);
    }
    const bad = await api.post(
      '/api/push/subscribe',
      { endpoint: 'https://push.example.org/x', keys: { p256dh: 'x', auth: 'y' }, showText: true },
      alice.accessToken,
    );
    expect(bad.status).toBe(400);
    expect(await subscriptionsOf(alice.user.id)).toEqual([]);
  });

  it('accepts loopback only with the test setting; public https endpoints always', () => {
    expect(endpointRefusal('http://127.0.0.1:9/push', false)).toBe(ENDPOINT_REFUSED.notHttps);
    expect(endpointRefusal('https://127.0.0.1:9/push', false)).toBe(ENDPOINT_REFUSED.internal);
    expect(endpointRefusal('https://localhost/push', false)).toBe(ENDPOINT_REFUSED.internal);
    expect(endpointRefusal('http://127.0.0.1:9/push', true)).toBeNull();
    expect(endpointRefusal('http://10.0.0.1/push', true)).toBe(ENDPOINT_REFUSED.notHttps);
    expect(endpointRefusal('https://fcm.googleapis.com/fcm/send/abc', false)).toBeNull();
    expect(endpointRefusal('https://updates.push.services.mozilla.com/wpush/v2/x', false)).toBeNull();
  });

  it('keeps at most 10 subscriptions per user (the oldest go) and one row per endpoint', async () => {
    const carol = await api.user('carol');
    const paths: string[] = [];
    for (let i = 0; i < PUSH.subscriptionsPerUser + 2; i++) {
      paths.push((await subscribe(carol)).path);
      clock.advance(1); // distinct created_at (the server's clock stamps them)
    }
    await subscribe(carol, { path: paths[paths.length - 1] }); // the same browser again
    const kept = (await subscriptionsOf(carol.user.id)).map((s) => s.endpoint.slice(ps.url.length)).sort();
    expect(kept).toEqual(paths.slice(2).sort());
  });

  it('signing out deletes the subscriptions of that sign-in only', async () => {
    const dave = await api.user('dave');
    const second = (await api.post('/api/auth/login', { username: dave.username, password: dave.password })).body;
    await subscribe(dave);
    await subscribe({ ...dave, accessToken: second.accessToken });
    expect(await subscriptionsOf(dave.user.id)).toHaveLength(2);
    expect((await api.post('/api/auth/logout', { refreshToken: dave.refreshToken })).status).toBe(200);
    expect(await subscriptionsOf(dave.user.id)).toHaveLength(1);
  });

  it("an endpoint stays its first subscriber's: another user presenting it gets 409 and takes nothing", async () => {
    const [owner, thief] = await Promise.all([api.user('fiona'), api.user('gus')]);
    const { path, keys } = await subscribe(owner);
    const stolen = await api.post(
      '/api/push/subscribe',
      { endpoint: ps.url + path, keys: subscriberKeys().keys, showText: true },
      thief.accessToken,
    );
    expect(stolen.status).toBe(409);
    expect(stolen.body.message).toBe(PUSH_ENDPOINT_TAKEN);
    expect(await subscriptionsOf(thief.user.id)).toEqual([]);
    const kept = await subscriptionsOf(owner.user.id);
    expect(kept.map((s) => s.endpoint)).toEqual([ps.url + path]);
    const row = await srv.server.ctx.db
      .selectFrom('push_subscriptions')
      .select('p256dh')
      .where('endpoint', '=', ps.url + path)
      .executeTakeFirstOrThrow();
    expect(row.p256dh).toBe(keys.p256dh);
    // Its owner may subscribe it again (new keys); once they unsubscribe, it is free for the next person.
    await subscribe(owner, { path });
    expect((await api.post('/api/push/unsubscribe', { endpoint: ps.url + path }, owner.accessToken)).status).toBe(200);
    await subscribe(thief, { path });
    expect(await subscriptionsOf(thief.user.id)).toHaveLength(1);
  });

  it('unsubscribing removes the endpoint', async () => {
    const erin = await api.user('erin');
    const { path } = await subscribe(erin);
    expect((await api.post('/api/push/unsubscribe', { endpoint: ps.url + path }, erin.accessToken)).status).toBe(200);
    expect(await subscriptionsOf(erin.user.id)).toEqual([]);
  });
});

describe('pushing', () => {
  it('pushes a message to a recipient with no socket: encrypted (RFC 8291), VAPID-signed, no token inside', async () => {
    const sub = await subscribe(bob);
    await send(alice, ab, 'Привет, Боб! Как дела?');
    const req = await ps.nth(sub.path, 1);
    expect(req.headers['content-encoding']).toBe('aes128gcm');
    expect(req.headers.ttl).toBe(String(PUSH.messageTtlSec));
    expect(req.headers.urgency).toBe('normal');
    const { publicKey } = (await api.get('/api/push/key', bob.accessToken)).body;
    const claims = await vapidClaims(req, publicKey);
    expect(claims.aud).toBe(ps.url);
    expect(claims.sub).toBe(srv.config.vapid.subject);
    const text = sub.decrypt(req.body);
    expect(JSON.parse(text)).toEqual({
      kind: 'message',
      conversationId: ab,
      title: alice.user.displayName,
      preview: 'Привет, Боб! Как дела?',
      count: 1,
      icon: null,
    });
    for (const secret of [alice.accessToken, bob.accessToken, alice.refreshToken, bob.refreshToken])
      expect(text).not.toContain(secret);
    // Without the subscription's private key, the body says nothing.
    expect(req.body.toString('utf8')).not.toContain('Привет');
    await api.post('/api/push/unsubscribe', { endpoint: ps.url + sub.path }, bob.accessToken);
  });

  it('coalesces a conversation: one push at once, the rest counted into one push when 10 s have passed', async () => {
    const frank = await api.user('frank');
    await befriend(api, alice, frank);
    const af = (await api.post('/api/conversations/with', { userId: frank.user.id }, alice.accessToken)).body
      .conversation.id;
    const sub = await subscribe(frank, { showText: false });
    const pushes = () => ps.requests.filter((r) => r.path === sub.path);
    await send(alice, af, 'первое');
    await send(alice, af, 'второе');
    await send(alice, af, 'третье');
    const first = JSON.parse(sub.decrypt((await ps.nth(sub.path, 1)).body));
    // «Показывать текст сообщений» off: no text leaves the server.
    expect(first).toMatchObject({ kind: 'message', count: 1, preview: null });
    // The other two wait for the end of the window…
    await srv.server.ctx.push.settled();
    clock.advance(PUSH.coalesceMs - 1);
    await srv.server.ctx.push.settled();
    expect(pushes()).toHaveLength(1);
    // …and go as one push when it ends.
    clock.advance(1);
    const second = await ps.nth(sub.path, 2);
    expect(JSON.parse(sub.decrypt(second.body))).toMatchObject({ count: 2, preview: null, conversationId: af });
    await srv.server.ctx.push.settled();
    expect(pushes()).toHaveLength(2);
  });

  it('does not push to a user whose socket is connected', async () => {
    const sub = await subscribe(bob);
    const socket = await connect(srv.url, bob.accessToken);
    const heard = next(socket, 'message:notify');
    await send(alice, ab, 'пока ты в сети');
    await heard;
    await srv.server.ctx.push.settled();
    expect(ps.requests.filter((r) => r.path === sub.path)).toEqual([]);
    socket.close();
    await api.post('/api/push/unsubscribe', { endpoint: ps.url + sub.path }, bob.accessToken);
  });

  it('a 404 or 410 from the push service deletes the subscription; a 500 keeps it', async () => {
    const gina = await api.user('gina');
    await befriend(api, alice, gina);
    const ag = (await api.post('/api/conversations/with', { userId: gina.user.id }, alice.accessToken)).body
      .conversation.id;
    const gone = await subscribe(gina);
    const broken = await subscribe(gina);
    ps.answer(gone.path, 410);
    ps.answer(broken.path, 500);
    await send(alice, ag, 'ау');
    await ps.nth(gone.path, 1);
    await ps.nth(broken.path, 1);
    await srv.server.ctx.push.settled();
    expect((await subscriptionsOf(gina.user.id)).map((s) => s.endpoint)).toEqual([ps.url + broken.path]);
  });

  it('never follows a redirect from a push endpoint', async () => {
    const hank = await api.user('hank');
    await befriend(api, alice, hank);
    const ah = (await api.post('/api/conversations/with', { userId: hank.user.id }, alice.accessToken)).body
      .conversation.id;
    const sub = await subscribe(hank);
    ps.answer(sub.path, 307, { location: `${ps.url}/redirected` });
    await send(alice, ah, 'куда?');
    await ps.nth(sub.path, 1);
    // Settled: the request to the endpoint has been answered, so a redirect followed would have been made.
    await srv.server.ctx.push.settled();
    expect(ps.requests.filter((r) => r.path === '/redirected')).toEqual([]);
  });

  it('an incoming call is pushed to every subscription of the callee with urgency high and a 30 s TTL, even with no tab open', async () => {
    const ivan = await api.user('ivan');
    await befriend(api, alice, ivan);
    const ai = (await api.post('/api/conversations/with', { userId: ivan.user.id }, alice.accessToken)).body
      .conversation.id;
    const one = await subscribe(ivan);
    const two = await subscribe(ivan);
    const a = await connect(srv.url, alice.accessToken);
    expect(await ack(a, 'call:invite', { conversationId: ai, video: true })).toEqual({ ok: true });
    for (const sub of [one, two]) {
      const req = await ps.nth(sub.path, 1);
      expect(req.headers.urgency).toBe('high');
      expect(req.headers.ttl).toBe(String(PUSH.callTtlSec));
      expect(JSON.parse(sub.decrypt(req.body))).toEqual({
        kind: 'call',
        conversationId: ai,
        title: alice.user.displayName,
        video: true,
        icon: null,
      });
    }
    a.close();
  });
});
