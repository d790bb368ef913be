// A device's update of its own leaf (docs/secret-chats.md "Forward secrecy and post-compromise security") is a
// commit that adds and removes nothing: the server takes it from a device in the group like any commit (epoch
// order, the log), and refuses it with a clear 4xx in Russian, storing nothing, from anyone else or with a welcome.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, type TestServer } from './harness';
import { secretDevice } from './secret-helpers';
import { type Api, befriend, type TestUser } from './socket-helpers';

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

const blob = (n = 48) => randomBytes(n).toString('base64');
const register = (token: string): Promise<string> => secretDevice(api, token);

describe('an update of a device’s own leaf', () => {
  it('is taken from a device in the group with nothing added or removed, and refused otherwise', async () => {
    const a1 = await register(anna.accessToken);
    const b1 = await register(boris.accessToken);
    const g1 = await register(gleb.accessToken);
    const created = await api.post(
      '/api/secret/conversations',
      { deviceId: a1, memberIds: [boris.user.id], deviceIds: [b1], groupId: blob(32), welcome: blob(200) },
      anna.accessToken,
    );
    expect(created.status).toBe(200);
    const chat = created.body.conversation.id as string;
    const update = (token: string, deviceId: string, epoch: number, extra: object = {}) =>
      api.post(
        '/api/secret/commits',
        { conversationId: chat, deviceId, epoch, commit: blob(), added: [], removed: [], ...extra },
        token,
      );
    const log = async () =>
      (await api.get(`/api/secret/conversations/${chat}/log?deviceId=${b1}&after=0`, boris.accessToken)).body;

    // Борис's device updates its leaf: the epoch moves on, the log has it with nothing added or removed.
    const ok = await update(boris.accessToken, b1, 1);
    expect(ok.status).toBe(200);
    expect(ok.body.epoch).toBe(2);
    const after = await log();
    expect(after.epoch).toBe(2);
    expect(after.entries.at(-1)).toMatchObject({ kind: 'commit', epoch: 1, deviceId: b1, added: [], removed: [] });

    // Refused, nothing stored: an older epoch, a welcome with nothing added, a non-member, someone else's device.
    const stale = await update(anna.accessToken, a1, 1);
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Группа уже изменилась: обновите состояние и повторите');
    const withWelcome = await update(anna.accessToken, a1, 2, { welcome: blob(200) });
    expect(withWelcome.status).toBe(400);
    expect(withWelcome.body.message).toMatch(/[А-Яа-я]/);
    const stranger = await update(gleb.accessToken, g1, 2);
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toMatch(/[А-Яа-я]/);
    const notOwn = await update(anna.accessToken, b1, 2);
    expect([403, 404]).toContain(notOwn.status);
    expect(notOwn.body.message).toMatch(/[А-Яа-я]/);
    expect((await log()).entries).toHaveLength(after.entries.length);
    expect((await log()).epoch).toBe(2);
  });
});
