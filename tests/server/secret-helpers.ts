// A secret chat set up over the real routes for suites that need one to exist (uploads, retention, closing), not
// to test its creation (secret-chats.test.ts does): a device per person, opaque key packages and welcome.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Api, TestUser } from './socket-helpers';

export const opaque = (n: number) => randomBytes(n).toString('base64');

/** Registers this sign-in as a device of secret chats; its id. */
export async function secretDevice(api: Api, token: string): Promise<string> {
  const res = await api.post('/api/secret/devices', { keyPackages: [opaque(64), opaque(64)] }, token);
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
