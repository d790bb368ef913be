// A secret chat set up over the real routes for suites that need one to exist (uploads, retention, closing), not
// to test its creation (secret-chats.test.ts does): a device per person, opaque key packages and welcome.
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { expect } from 'vitest';
import { deviceStatement } from '../../src/contract/secret-identity';
import type { Api, TestUser } from './socket-helpers';

export const opaque = (n: number) => randomBytes(n).toString('base64');

/** The raw 32 bytes of an Ed25519 public key, base64. */
export const rawKey = (key: KeyObject) =>
  Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url').toString('base64');
export const ed25519 = () => generateKeyPairSync('ed25519');
export const signWith = (key: KeyObject, message: string) => sign(null, Buffer.from(message), key).toString('base64');
/** The user an access token names (its `sub`). */
export const userOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sub;

/** Each person's identity key in these tests, registered on the server at its first use. */
const identities = new Map<string, Promise<KeyObject>>();
export function identityOf(api: Api, token: string): Promise<KeyObject> {
  const userId = userOf(token);
  let known = identities.get(userId);
  if (!known) {
    known = (async () => {
      const { publicKey, privateKey } = ed25519();
      const res = await api.post('/api/secret/identity', { publicKey: rawKey(publicKey) }, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return privateKey;
    })();
    identities.set(userId, known);
  }
  return known;
}

/** A fresh device key signed by the token's person's identity key: what POST /api/secret/devices needs beside packages. */
export async function signedDevice(
  api: Api,
  token: string,
): Promise<{ signatureKey: string; identitySignature: string }> {
  const identity = await identityOf(api, token);
  const signatureKey = rawKey(ed25519().publicKey);
  return { signatureKey, identitySignature: signWith(identity, deviceStatement(userOf(token), signatureKey)) };
}

/** Registers this sign-in as a device of secret chats; its id. */
export async function secretDevice(api: Api, token: string): Promise<string> {
  const res = await api.post(
    '/api/secret/devices',
    { keyPackages: [opaque(64), opaque(64)], ...(await signedDevice(api, token)) },
    token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.device.id;
}

/** A secret chat of `owner` with `members` (friends of theirs), each with one device; its conversation id. */
export async function secretChat(api: Api, owner: TestUser, members: TestUser[], title?: string): Promise<string> {
  const deviceId = await secretDevice(api, owner.accessToken);
  const deviceIds = await Promise.all(members.map((m) => secretDevice(api, m.accessToken)));
  const res = await api.post(
    '/api/secret/conversations',
    {
      deviceId,
      memberIds: members.map((m) => m.user.id),
      deviceIds,
      groupId: opaque(32),
      welcome: opaque(200),
      ...(title ? { title } : {}),
    },
    owner.accessToken,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.conversation.id;
}
