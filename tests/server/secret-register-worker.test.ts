// The background registration run whole in the crypto worker (src/services/secretChats/crypto/register-core.ts),
// as the page runs it (secret-effects.ts over the app's API client) against the real server, on SQLite and (with
// TEST_PG_URL) PostgreSQL: the page posts one message to the worker, the worker makes the person's identity key,
// registers the device signed by it and uploads its key packages with a last-resort one; a token the server refuses
// and an identity key held by another device are left to the page's own steps (docs/secret-chats.md "Reaching
// everyone").
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits';
import { createApiClient } from '../../src/services/app/api';
import type { SecretCrypto } from '../../src/services/secretChats/crypto/secret-crypto';
import { createSecretCryptoCore } from '../../src/services/secretChats/crypto/secret-crypto-core';
import { createSecretStore, indexedDbBackend } from '../../src/services/secretChats/crypto/secret-store';
import { createSecretEffects } from '../../src/services/secretChats/secret-effects';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, closeAll, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let browsers = 0;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

/** A browser of this person: its own store and crypto core (each call counted), the app's API client. */
function browserOf(user: TestUser, token: () => string = () => user.accessToken) {
  const core = createSecretCryptoCore(createSecretStore(indexedDbBackend(`register-worker-${++browsers}`)));
  const calls: string[] = [];
  const crypto = new Proxy(core, {
    get: (target, name: string) => {
      const fn = target[name as keyof SecretCrypto] as (...a: unknown[]) => Promise<unknown>;
      return (...a: unknown[]) => {
        calls.push(name);
        return fn(...a);
      };
    },
  });
  let refreshed = 0;
  const http = createApiClient({
    baseURL: `${srv.url}/api`,
    auth: {
      accessToken: () => (refreshed > 0 ? user.accessToken : token()),
      refreshToken: () => 'r',
      refresh: async () => {
        refreshed++;
        return user.accessToken;
      },
    },
  });
  const access = () => ({ baseURL: `${srv.url}/api`, token: refreshed > 0 ? user.accessToken : token() });
  return { core, calls, effects: createSecretEffects(http, () => crypto, access), refreshes: () => refreshed };
}

const devicesOf = async (user: TestUser) => {
  const r = await api.get(`/api/secret/identities?userIds=${user.user.id}`, user.accessToken);
  return r.body.identities as { userId: string; publicKey: string }[];
};

describe('registration in the crypto worker', () => {
  it("a person's first browser: one call to the worker, which makes the identity key, registers and uploads", async () => {
    const anna = await api.user('rwanna');
    const b = browserOf(anna);
    const { deviceId, keyPackagesLeft } = await b.effects.device(anna.user.id);
    // The page asked the worker once; every other step was the worker's.
    expect(b.calls).toEqual(['registerDevice']);
    // The registration's own package (which names no device) and the ten that follow it.
    const left = LIMITS.keyPackagesKeep + 1;
    expect(keyPackagesLeft).toBe(left);
    const [identity] = await devicesOf(anna);
    expect(identity?.publicKey).toBe((await b.core.identityStatus(anna.user.id)).publicKey);
    const state = await api.get(`/api/secret/state?deviceId=${deviceId}`, anna.accessToken);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ keyPackagesLeft: left, lastResort: true });
    expect((await b.core.prepareDevice(anna.user.id)).deviceId).toBe(deviceId);

    // The same browser after a reload: the device it is, its last-resort package still there, nothing uploaded.
    const again = createSecretEffects(
      createApiClient({
        baseURL: `${srv.url}/api`,
        auth: { accessToken: () => anna.accessToken, refreshToken: () => null, refresh: async () => null },
      }),
      () => b.core,
      () => ({ baseURL: `${srv.url}/api`, token: anna.accessToken }),
    );
    expect(await again.device(anna.user.id)).toEqual({ deviceId, keyPackagesLeft: left, approvals: 0 });
  });

  it('a token the server refuses: the page renews it and registers by its own steps', async () => {
    const boris = await api.user('rwboris');
    const b = browserOf(boris, () => 'expired');
    const { deviceId } = await b.effects.device(boris.user.id);
    expect(b.calls[0]).toBe('registerDevice');
    expect(b.calls).toContain('deviceProof');
    expect(b.refreshes()).toBe(1);
    const state = await api.get(`/api/secret/state?deviceId=${deviceId}`, boris.accessToken);
    expect(state.body).toMatchObject({ lastResort: true });
  });

  it('a second browser of a person whose identity key is elsewhere: the worker registers nothing and leaves it to the page', async () => {
    const vera = await api.user('rwvera');
    await browserOf(vera).effects.device(vera.user.id);
    const second = browserOf(vera);
    const server = { baseURL: `${srv.url}/api`, token: vera.accessToken };
    expect(await second.core.registerDevice(vera.user.id, server)).toEqual({ page: 'approval' });
    // No identity key made here, and the server's is the first browser's still.
    expect((await second.core.identityStatus(vera.user.id)).publicKey).toBeNull();
    expect(await devicesOf(vera)).toHaveLength(1);
    expect((await second.core.prepareDevice(vera.user.id)).deviceId).toBeNull();
    // A refusal is reported with the server's status and words, as the page's API client reports them.
    const stranger = { baseURL: `${srv.url}/api`, token: 'nonsense' };
    expect(await browserOf(vera).core.registerDevice(vera.user.id, stranger)).toEqual({ page: 'unauthorized' });
  });

  it('an old device hears of a new sign-in asking for approval from its registration, and one runs at a time', async () => {
    const ida = await api.user('rwida');
    const first = browserOf(ida);
    const server = { baseURL: `${srv.url}/api`, token: ida.accessToken };
    // The background registration and the device actor's at once: one device, not two.
    const [a, b] = await Promise.all([
      first.core.registerDevice(ida.user.id, server),
      first.core.registerDevice(ida.user.id, server),
    ]);
    expect(a).toEqual(b);
    expect(await devicesOf(ida)).toHaveLength(1);
    // A first device made the identity key just now: no one can be asking yet, and it does not look.
    expect(a).not.toHaveProperty('approvals');
    expect(await first.core.registerDevice(ida.user.id, server)).toMatchObject({ approvals: 0 });
    // A new sign-in asks: the old browser's next registration (its next page load) says a request is open.
    const login = await api.post('/api/auth/login', { username: ida.username, password: ida.password });
    const key = (n: number) => Buffer.alloc(n, 7).toString('base64');
    const asked = await api.post(
      '/api/secret/approvals',
      { deviceKey: key(32), exchangeKey: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 9)]).toString('base64') },
      login.body.accessToken,
    );
    expect(asked.status).toBe(200);
    expect(await first.core.registerDevice(ida.user.id, server)).toMatchObject({ approvals: 1 });
  });
});
