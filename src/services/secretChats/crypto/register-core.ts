// This browser's registration as a device of secret chats, run whole in the crypto worker (docs/secret-chats.md
// "Reaching everyone"): the keys, the identity key of a person's first device, the signed registration and the key
// packages, with the worker's own requests to the server. The page posts one message and hears one answer, so the
// background registration after sign-in costs its main thread almost nothing (bench/client, part f). What needs the
// person — an identity key brought by another device's approval — and a token that needs renewing are the page's
// (secret-effects.ts runs the same steps there then).
import { LIMITS } from '../../../contract/limits';
import type { SecretCrypto, ServerAccess, WorkerRegistration } from './secret-crypto';

class Refused extends Error {
  constructor(
    readonly status: number | null,
    readonly serverMessage: string | null,
  ) {
    super(serverMessage ?? 'request failed');
  }
}

async function request<T>(server: ServerAccess, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${server.baseURL}${path}`, {
      method,
      credentials: 'include',
      headers: {
        ...(server.token ? { Authorization: `Bearer ${server.token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new Refused(null, null);
  }
  const data = (await res.json().catch(() => null)) as { message?: unknown } | null;
  if (!res.ok) throw new Refused(res.status, typeof data?.message === 'string' ? data.message : null);
  return data as T;
}

/**
 * The same steps as secret-effects.ts `register`: a registered device checks its last-resort package; a new one
 * gets the person's identity key (made here for a person who has none), registers signed by it and uploads its key
 * packages with a last-resort one.
 */
export async function registerInWorker(
  c: SecretCrypto,
  userId: string,
  server: ServerAccess,
): Promise<WorkerRegistration> {
  const r = await register(c, userId, server);
  // A person's first device, whose identity key was made just now, has no request to answer: no one could ask for
  // a key that did not exist (one asking later is heard by the page's listener).
  if (!('deviceId' in r) || r.identityMade) return withoutFlag(r);
  // Requests for approval open now (a new sign-in of this person asked while this device was away): the page
  // starts the device's approval only then, without a request of its own.
  const approvals = await request<{ approvals: unknown[] }>(server, 'GET', '/secret/approvals').then(
    (a) => a.approvals.length,
    () => 0,
  );
  return { ...r, approvals };
}

type Registered = WorkerRegistration & { identityMade?: boolean };

function withoutFlag(r: Registered): WorkerRegistration {
  if (!('deviceId' in r)) return r;
  const { identityMade: _, ...rest } = r;
  return rest;
}

async function register(c: SecretCrypto, userId: string, server: ServerAccess): Promise<Registered> {
  try {
    const prepared = await c.prepareDevice(userId);
    let deviceId = prepared.deviceId;
    if (deviceId) {
      const state = await request<{ lastResort: boolean; keyPackagesLeft: number }>(
        server,
        'GET',
        `/secret/state?deviceId=${encodeURIComponent(deviceId)}`,
      );
      if (state.lastResort) return { deviceId, keyPackagesLeft: state.keyPackagesLeft };
      const keyPackages = await c.makeKeyPackages(userId, 1);
      const lastResort = await c.makeLastResort(userId);
      const left = await request<{ keyPackagesLeft: number }>(server, 'POST', '/secret/key-packages', {
        deviceId,
        keyPackages,
        lastResort,
      });
      return { deviceId, keyPackagesLeft: left.keyPackagesLeft };
    }
    if (!prepared.registration) return { failed: { status: null, message: null } };
    const mine = (await c.identityStatus(userId)).publicKey;
    const { identities } = await request<{ identities: { userId: string; publicKey: string }[] }>(
      server,
      'GET',
      `/secret/identities?userIds=${encodeURIComponent(userId)}`,
    );
    const theirs = identities.find((i) => i.userId === userId)?.publicKey ?? null;
    let identityMade = false;
    if (!(mine && mine === theirs)) {
      // Held here and not on the server yet, or nowhere at all (the person's first device): the server takes it.
      if (theirs) return { page: 'approval' };
      identityMade = !mine;
      const publicKey = mine ?? (await c.identityCreate(userId)).publicKey;
      try {
        await request(server, 'POST', '/secret/identity', { publicKey });
      } catch (e) {
        // Another first device of the person won: this one is approved like any new one.
        if (e instanceof Refused && e.status === 409) return { page: 'approval' };
        throw e;
      }
    }
    const proof = await c.deviceProof(userId);
    const r = await request<{ device: { id: string } }>(server, 'POST', '/secret/devices', {
      keyPackages: [prepared.registration],
      ...proof,
    });
    deviceId = r.device.id;
    await c.setDeviceId(userId, deviceId);
    // The registration package names no device, so no adder accepts it: real ones follow at once, with the
    // last-resort one that lets friends add this device even when the others are used up or expired.
    const keyPackages = await c.makeKeyPackages(userId, LIMITS.keyPackagesKeep);
    const lastResort = await c.makeLastResort(userId);
    const left = await request<{ keyPackagesLeft: number }>(server, 'POST', '/secret/key-packages', {
      deviceId,
      keyPackages,
      lastResort,
    });
    return { deviceId, keyPackagesLeft: left.keyPackagesLeft, identityMade };
  } catch (e) {
    if (e instanceof Refused) {
      if (e.status === 401) return { page: 'unauthorized' };
      return { failed: { status: e.status, message: e.serverMessage } };
    }
    throw e;
  }
}
