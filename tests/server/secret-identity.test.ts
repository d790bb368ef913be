// Identity keys of secret chats over the real server (docs/secret-chats.md "Identity keys"), on SQLite and (with
// TEST_PG_URL) PostgreSQL: the first identity key wins and another only as an explicit reset (a new version); a device
// registers only with its key signed by its person's identity key; the identity keys are given to whoever may add
// the person; a new sign-in's request reaches the person's old devices, whose signed, sealed answer only the new
// sign-in reads; and no bad input is answered with 500 or changes anything.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deviceStatement } from '../../src/contract/secret-identity';
import { client, startTestServer, type TestServer } from './harness';
import { ed25519, rawKey, signedDevice, signWith } from './secret-helpers';
import { type Api, befriend, closeAll, connect, next, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let gleb: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, gleb] = await Promise.all(['anna', 'boris', 'gleb'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

const blob = (n: number) => randomBytes(n).toString('base64');
const setIdentity = (token: string, body: object) => api.post('/api/secret/identity', body, token);
const identities = (token: string, userIds: string[]) =>
  api.get(`/api/secret/identities?userIds=${userIds.join(',')}`, token);
const register = (token: string, extra: object) =>
  api.post('/api/secret/devices', { keyPackages: [blob(64)], ...extra }, token);
async function signInAgain(u: TestUser): Promise<string> {
  const res = await api.post('/api/auth/login', { username: u.username, password: u.password });
  expect(res.status).toBe(200);
  return res.body.accessToken;
}
const exchangeKey = () => Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64');
const deviceCount = async (userId: string) =>
  (await srv.server.ctx.db.selectFrom('secret_devices').select('id').where('user_id', '=', userId).execute()).length;

describe('identity keys', () => {
  it('keeps the first identity key; another only as a reset, which moves the version on', async () => {
    const u = await api.user('ident');
    const first = ed25519();
    const set = await setIdentity(u.accessToken, { publicKey: rawKey(first.publicKey) });
    expect(set.status).toBe(200);
    expect(set.body.identity).toMatchObject({ userId: u.user.id, version: 1, resetAt: null });
    // The same key again changes nothing.
    expect((await setIdentity(u.accessToken, { publicKey: rawKey(first.publicKey) })).body).toEqual(set.body);
    // Another key without a reset: 409 in Russian, the first stays.
    const other = ed25519();
    const refused = await setIdentity(u.accessToken, { publicKey: rawKey(other.publicKey) });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/ключ личности/);
    expect((await identities(u.accessToken, [u.user.id])).body.identities[0].publicKey).toBe(rawKey(first.publicKey));
    // An explicit reset replaces it with a new version and its time.
    const reset = await setIdentity(u.accessToken, { publicKey: rawKey(other.publicKey), reset: true });
    expect(reset.status).toBe(200);
    expect(reset.body.identity).toMatchObject({ publicKey: rawKey(other.publicKey), version: 2 });
    expect(reset.body.identity.resetAt).toEqual(expect.any(String));
  });

  it('registers a device only with its key signed by its person’s identity key', async () => {
    const u = await api.user('signer');
    const identity = ed25519();
    const device = rawKey(ed25519().publicKey);
    const statement = deviceStatement(u.user.id, device);
    // No identity key yet: 400, no device.
    const early = await register(u.accessToken, {
      signatureKey: device,
      identitySignature: signWith(identity.privateKey, statement),
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/ключ личности/);
    await setIdentity(u.accessToken, { publicKey: rawKey(identity.publicKey) });
    // Unsigned, signed by another key, signed for another person or another device key: 400 each, nothing made.
    const stranger = ed25519();
    for (const extra of [
      {},
      { signatureKey: device },
      { signatureKey: device, identitySignature: signWith(stranger.privateKey, statement) },
      {
        signatureKey: device,
        identitySignature: signWith(identity.privateKey, deviceStatement(boris.user.id, device)),
      },
      {
        signatureKey: rawKey(ed25519().publicKey),
        identitySignature: signWith(identity.privateKey, statement),
      },
    ]) {
      const res = await register(u.accessToken, extra);
      expect(res.status, JSON.stringify(Object.keys(extra))).toBe(400);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    expect(await deviceCount(u.user.id)).toBe(0);
    const ok = await register(u.accessToken, {
      signatureKey: device,
      identitySignature: signWith(identity.privateKey, statement),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const row = await srv.server.ctx.db
      .selectFrom('secret_devices')
      .selectAll()
      .where('id', '=', ok.body.device.id)
      .executeTakeFirstOrThrow();
    expect(row.signature_key).toBe(device);
  });

  it('gives identity keys to whoever may add the person, and refuses strangers', async () => {
    await signedDevice(api, anna.accessToken);
    await signedDevice(api, boris.accessToken);
    const seen = await identities(anna.accessToken, [boris.user.id, anna.user.id]);
    expect(seen.status).toBe(200);
    expect(seen.body.identities.map((i: { userId: string }) => i.userId).sort()).toEqual(
      [anna.user.id, boris.user.id].sort(),
    );
    const stranger = await identities(gleb.accessToken, [boris.user.id]);
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toMatch(/[а-яё]/i);
  });
});

describe('approving a new sign-in', () => {
  it('relays a request to the old devices and the signed, sealed answer to the new sign-in only', async () => {
    const u = await api.user('approve');
    const identity = ed25519();
    await setIdentity(u.accessToken, { publicKey: rawKey(identity.publicKey) });
    const oldKey = rawKey(ed25519().publicKey);
    const old = await register(u.accessToken, {
      signatureKey: oldKey,
      identitySignature: signWith(identity.privateKey, deviceStatement(u.user.id, oldKey)),
    });
    expect(old.status).toBe(200);
    const oldSocket = await connect(srv.url, u.accessToken);
    const heard = next(oldSocket, 'secret:approval');

    // The new sign-in asks.
    const fresh = await signInAgain(u);
    const newKey = rawKey(ed25519().publicKey);
    const asked = await api.post('/api/secret/approvals', { deviceKey: newKey, exchangeKey: exchangeKey() }, fresh);
    expect(asked.status).toBe(200);
    const id = asked.body.approval.id as string;
    expect(await heard).toEqual({ id, answered: false });
    // The old device sees it; the asking sign-in does not list its own request; another person sees nothing.
    expect(
      (await api.get('/api/secret/approvals', u.accessToken)).body.approvals.map((a: { id: string }) => a.id),
    ).toEqual([id]);
    expect((await api.get('/api/secret/approvals', fresh)).body.approvals).toEqual([]);
    expect((await api.get('/api/secret/approvals', boris.accessToken)).body.approvals).toEqual([]);
    // Nobody but the asking sign-in reads the request's answer; nobody but the person answers it.
    expect((await api.get(`/api/secret/approvals/${id}`, u.accessToken)).status).toBe(403);
    expect((await api.get(`/api/secret/approvals/${id}`, boris.accessToken)).status).toBe(404);
    const goodSignature = signWith(identity.privateKey, deviceStatement(u.user.id, newKey));
    const sealed = blob(120);
    expect(
      (await api.post(`/api/secret/approvals/${id}`, { signature: goodSignature, sealed }, boris.accessToken)).status,
    ).toBe(404);
    // The asking sign-in cannot approve itself (it is no device yet); a signature by another key is refused.
    expect((await api.post(`/api/secret/approvals/${id}`, { signature: goodSignature, sealed }, fresh)).status).toBe(
      403,
    );
    const forged = await api.post(
      `/api/secret/approvals/${id}`,
      { signature: signWith(ed25519().privateKey, deviceStatement(u.user.id, newKey)), sealed },
      u.accessToken,
    );
    expect(forged.status).toBe(400);
    expect(forged.body.message).toMatch(/ключом личности/);
    expect((await api.get(`/api/secret/approvals/${id}`, fresh)).body.approval).toMatchObject({ signature: null });

    // The old device answers: the new sign-in reads it, registers with it; a second answer is 409.
    const answered = await api.post(`/api/secret/approvals/${id}`, { signature: goodSignature, sealed }, u.accessToken);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const got = await api.get(`/api/secret/approvals/${id}`, fresh);
    expect(got.body.approval).toMatchObject({ signature: goodSignature, sealed });
    expect(
      (await api.post(`/api/secret/approvals/${id}`, { signature: goodSignature, sealed }, u.accessToken)).status,
    ).toBe(409);
    expect((await api.get('/api/secret/approvals', u.accessToken)).body.approvals).toEqual([]);
    const registered = await register(fresh, { signatureKey: newKey, identitySignature: goodSignature });
    expect(registered.status).toBe(200);
  });
});

describe('a declined request', () => {
  it('is declined only by a live device of the person, once; the new sign-in reads it and cannot register', async () => {
    const u = await api.user('decline');
    const identity = ed25519();
    await setIdentity(u.accessToken, { publicKey: rawKey(identity.publicKey) });
    const oldKey = rawKey(ed25519().publicKey);
    await register(u.accessToken, {
      signatureKey: oldKey,
      identitySignature: signWith(identity.privateKey, deviceStatement(u.user.id, oldKey)),
    });
    const fresh = await signInAgain(u);
    const asked = await api.post(
      '/api/secret/approvals',
      { deviceKey: rawKey(ed25519().publicKey), exchangeKey: exchangeKey() },
      fresh,
    );
    const id = asked.body.approval.id as string;
    expect(asked.body.approval.declined).toBe(false);
    const decline = (token: string) => api.post(`/api/secret/approvals/${id}/decline`, undefined, token);
    // Another person, and the asking sign-in itself (no device yet), cannot decline it; nothing changes.
    expect((await decline(boris.accessToken)).status).toBe(404);
    const self = await decline(fresh);
    expect(self.status).toBe(403);
    expect(self.body.message).toMatch(/[а-яё]/i);
    expect((await api.get(`/api/secret/approvals/${id}`, fresh)).body.approval.declined).toBe(false);

    const oldSocket = await connect(srv.url, u.accessToken);
    const heard = next(oldSocket, 'secret:approval');
    const declined = await decline(u.accessToken);
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(await heard).toEqual({ id, answered: true });
    expect((await api.get(`/api/secret/approvals/${id}`, fresh)).body.approval).toMatchObject({
      declined: true,
      signature: null,
      sealed: null,
    });
    // Answered once: neither a second decline nor an approval after it; no longer listed to the old devices.
    expect((await decline(u.accessToken)).status).toBe(409);
    const late = signWith(identity.privateKey, deviceStatement(u.user.id, asked.body.approval.deviceKey));
    expect(
      (await api.post(`/api/secret/approvals/${id}`, { signature: late, sealed: blob(120) }, u.accessToken)).status,
    ).toBe(409);
    expect((await api.get('/api/secret/approvals', u.accessToken)).body.approvals).toEqual([]);
  });
});

describe('bad input', () => {
  it('answers malformed identity requests with a 4xx in Russian, never 500', async () => {
    const token = anna.accessToken;
    const cases: [string, string, unknown][] = [
      ['POST', '/api/secret/identity', {}],
      ['POST', '/api/secret/identity', { publicKey: 'short' }],
      ['POST', '/api/secret/identity', { publicKey: blob(33) }],
      ['POST', '/api/secret/identity', { publicKey: blob(32), reset: false }],
      ['POST', '/api/secret/identity', { publicKey: blob(32), extra: 1 }],
      ['GET', '/api/secret/identities', undefined],
      ['GET', '/api/secret/identities?userIds=', undefined],
      ['GET', '/api/secret/identities?userIds=../x', undefined],
      ['GET', '/api/secret/identities?userIds=nobody', undefined],
      ['POST', '/api/secret/approvals', {}],
      ['POST', '/api/secret/approvals', { deviceKey: blob(32), exchangeKey: blob(10) }],
      ['GET', '/api/secret/approvals/nope', undefined],
      ['POST', '/api/secret/approvals/nope', { signature: blob(64), sealed: blob(40) }],
      ['POST', '/api/secret/approvals/nope', { signature: blob(10), sealed: blob(40) }],
      ['POST', '/api/secret/approvals/nope', { signature: blob(64), sealed: '***' }],
      ['POST', '/api/secret/approvals/nope/decline', undefined],
      ['POST', '/api/secret/devices', { keyPackages: [blob(64)], signatureKey: blob(32), identitySignature: 'x' }],
    ];
    const before = await srv.server.ctx.db.selectFrom('secret_identities').selectAll().execute();
    for (const [method, path, body] of cases) {
      const res = await api.call(method, path, { token, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    expect(await srv.server.ctx.db.selectFrom('secret_identities').selectAll().execute()).toEqual(before);
    for (const [method, path] of [
      ['GET', '/api/secret/identities?userIds=x'],
      ['POST', '/api/secret/identity'],
      ['GET', '/api/secret/approvals'],
    ] as const)
      expect((await api.call(method, path, {})).status).toBe(401);
  });
});
