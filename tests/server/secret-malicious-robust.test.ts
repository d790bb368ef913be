// A delivery service that misbehaves on purpose, against the real clients' code: the secret chats' effects
// (secret-effects.ts), the crypto worker's core with real ts-mls (in Node, its IndexedDB in fake-indexeddb) and the
// secretChat actor, talking to the real server through an API client that alters what the server answers. Each case
// asserts that the attack is refused and shown (docs/secret-chats.md "What the server sees, and what it does not").
import 'fake-indexeddb/auto';
import { Encryption_Type, TrackInfo, TrackType } from '@livekit/protocol';
import { type RemoteParticipant, RemoteTrackPublication, Room, RoomEvent, Track } from 'livekit-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { RouteName } from '../../src/contract/routes';
import { secretChatMachine } from '../../src/machines/secretChats/secretChat/secretChat.machine';
import {
  type CatchUpResult,
  REJOIN_NOTICE,
  type SecretChatInput,
} from '../../src/machines/secretChats/secretChat/secretChat.protocol';
import { type ApiClient, createApiClient } from '../../src/services/app/api';
import type { SecretCrypto } from '../../src/services/secretChats/crypto/secret-crypto';
import { createSecretCryptoCore } from '../../src/services/secretChats/crypto/secret-crypto-core';
import { createSecretStore, indexedDbBackend } from '../../src/services/secretChats/crypto/secret-store';
import { createSecretEffects, type SecretEffects } from '../../src/services/secretChats/secret-effects';
import { dropUnencrypted, unencryptedNotice } from '../../src/ui/calls/call-e2ee';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, closeAll, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let browsers = 0;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

/** What the misbehaving server does to one browser's requests: a function of the route and the real answer. */
type Tamper = (name: RouteName, answer: unknown) => unknown;

interface Browser {
  userId: string;
  token: string;
  crypto: SecretCrypto;
  effects: SecretEffects;
  tamper: { with: Tamper | null };
  http: ApiClient;
}

/** A browser signed in as `user` (its own store and crypto core), whose answers the server may alter. */
function browser(user: { user: { id: string }; accessToken: string }): Browser {
  const crypto = createSecretCryptoCore(createSecretStore(indexedDbBackend(`malicious-robust-${++browsers}`)));
  const real = createApiClient({
    baseURL: `${srv.url}/api`,
    auth: { accessToken: () => user.accessToken, refreshToken: () => null, refresh: async () => null },
  });
  const tamper: { with: Tamper | null } = { with: null };
  const http: ApiClient = {
    async call(name, o) {
      const answer = await real.call(name, o);
      return (tamper.with ? tamper.with(name, answer) : answer) as typeof answer;
    },
  };
  return {
    userId: user.user.id,
    token: user.accessToken,
    crypto,
    tamper,
    http,
    effects: createSecretEffects(http, () => crypto),
  };
}

/** A person's new browser becomes a device once their first one approves it, as the app's approval dialog does. */
async function approvedDevice(fresh: Browser, approver: Browser): Promise<{ deviceId: string }> {
  const registered = fresh.effects.device(fresh.userId);
  const asked = await vi.waitFor(
    async () => {
      const [first] = (await approver.http.call('secretApprovals', {})).approvals;
      if (!first) throw new Error('no approval asked yet');
      return first;
    },
    { timeout: 15_000, interval: 50 },
  );
  const answer = await approver.crypto.approve(approver.userId, asked);
  await approver.http.call('secretApprovalAnswer', { params: { id: asked.id }, body: answer });
  fresh.effects.identity.answered();
  return registered;
}

/** Another sign-in of the same person (another device). */
async function signInAgain(u: TestUser): Promise<TestUser> {
  const res = await api.post('/api/auth/login', { username: u.username, password: u.password });
  expect(res.status).toBe(200);
  return { ...u, ...res.body };
}

/** A byte of a base64 body changed (the server altering a commit it relays). */
function damaged(b64: string): string {
  const bytes = Buffer.from(b64, 'base64');
  const at = bytes.length - 8;
  bytes[at] = (bytes[at] as number) ^ 0x5a;
  return bytes.toString('base64');
}

/** The secretChat actor of a browser with the real effects (as the app's wiring provides them). */
function chatActor(b: Browser, conversationId: string) {
  type Where = { userId: string; conversationId: string; deviceId: string };
  const machine = secretChatMachine.provide({
    actors: {
      register: fromPromise(({ input }: { input: { userId: string } }) => b.effects.device(input.userId)),
      catchUp: fromPromise(({ input }: { input: Where & { after: number } }) => b.effects.catchUp(input)),
      commit: fromPromise(({ input }: { input: Where }) => b.effects.commit(input)),
    },
  });
  const input: SecretChatInput = { userId: b.userId, conversationId };
  return createActor(machine, { input }).start();
}

const state = (b: Browser, deviceId: string) => api.get(`/api/secret/state?deviceId=${deviceId}`, b.token);
const russian = (r: { status: number; body: { message?: string } }) => expect(r.body.message).toMatch(/[а-яё]/i);

describe('a delivery service that alters a commit', () => {
  it('is skipped and reported by the device it reached, which asks to rejoin and is added again', async () => {
    const [anna, boris] = await Promise.all([api.user('mranna'), api.user('mrboris')]);
    await befriend(api, anna, boris);
    const a = browser(anna);
    const b = browser(boris);
    const { deviceId: aDevice } = await a.effects.device(a.userId);
    const { deviceId: bDevice } = await b.effects.device(b.userId);
    const { conversationId } = await a.effects.create({ userId: a.userId, memberIds: [boris.user.id], title: null });

    // Борис's device joins, then rests in `ready`.
    const bChat = chatActor(b, conversationId);
    await waitFor(bChat, (s) => s.matches('ready'), { timeout: 15_000 });
    expect(bChat.getSnapshot().context.epoch).toBe(1);

    // Анна signs in on a second browser; her first device commits its addition (epoch 1 → 2).
    const a2 = browser(await signInAgain(anna));
    await approvedDevice(a2, a);
    const added = await a.effects.commit({ userId: a.userId, conversationId, deviceId: aDevice });
    expect(added.epoch).toBe(2);

    // The server hands Борис's device that commit with a byte changed.
    b.tamper.with = (name, answer) => {
      if (name !== 'secretLog') return answer;
      const page = answer as { entries: { kind: string; body: string }[] };
      return { ...page, entries: page.entries.map((e) => (e.kind === 'commit' ? { ...e, body: damaged(e.body) } : e)) };
    };
    bChat.send({ type: 'secretChat.log', seq: added.seq, epoch: 2 });
    // Refused: skipped, the catch-up went past it, and the chat says so (the notice of the `rejoining` tag).
    await waitFor(bChat, (s) => s.hasTag('rejoining'), { timeout: 15_000 });
    expect(bChat.getSnapshot().context.epoch).toBeNull();
    expect(REJOIN_NOTICE).toMatch(/^Не удалось применить изменение состава чата/);
    // It asked to be added again: Анна's device sees it both to remove (its stale leaf) and to add.
    const listed = (await state(a, aDevice)).body.groups[0];
    expect(listed.toRemove).toEqual([bDevice]);
    expect(listed.toAdd).toEqual([{ userId: boris.user.id, deviceId: bDevice }]);

    // The server behaves again; Анна's device re-adds Борис's in one commit with a fresh key package.
    b.tamper.with = null;
    const readded = await a.effects.commit({ userId: a.userId, conversationId, deviceId: aDevice });
    expect(readded.epoch).toBe(3);
    const after = (await state(a, aDevice)).body.groups[0];
    expect(after).toMatchObject({ toAdd: [], toRemove: [] });
    bChat.send({ type: 'secretChat.log', seq: readded.seq, epoch: 3 });
    await waitFor(bChat, (s) => s.matches('ready') && s.context.epoch === 3, { timeout: 15_000 });

    // They share the group's keys again: a message of Анна's reads on Борис's device, and the call keys agree.
    const sent = await a.crypto.encrypt(a.userId, conversationId, { v: 1, kind: 'text', text: 'Снова вместе' });
    const read = await b.crypto.decrypt(b.userId, conversationId, 'm-after-rejoin', sent.ciphertext);
    expect(read).toMatchObject({ senderUserId: anna.user.id, envelope: { text: 'Снова вместе' } });
    expect((await b.crypto.callKey(b.userId, conversationId)).key).toEqual(
      (await a.crypto.callKey(a.userId, conversationId)).key,
    );
    bChat.stop();
  }, 60_000);

  it('a gap (a commit left out of the log) is skipped the same way; the device asks once', async () => {
    const [anna, boris] = await Promise.all([api.user('mganna'), api.user('mgboris')]);
    await befriend(api, anna, boris);
    const a = browser(anna);
    const b = browser(boris);
    const { deviceId: aDevice } = await a.effects.device(a.userId);
    const { deviceId: bDevice } = await b.effects.device(b.userId);
    const { conversationId } = await a.effects.create({ userId: a.userId, memberIds: [boris.user.id], title: null });
    const joined = await b.effects.catchUp({ userId: b.userId, conversationId, deviceId: bDevice, after: 0 });
    expect(joined).toMatchObject({ epoch: 1, skipped: 0 });
    const a2 = browser(await signInAgain(anna));
    await approvedDevice(a2, a);
    await a.effects.commit({ userId: a.userId, conversationId, deviceId: aDevice });
    const a3 = browser(await signInAgain(anna));
    await approvedDevice(a3, a);
    await a.effects.commit({ userId: a.userId, conversationId, deviceId: aDevice });
    // The server leaves out the first of the two commits.
    b.tamper.with = (name, answer) => {
      if (name !== 'secretLog') return answer;
      const page = answer as { entries: { kind: string }[] };
      const first = page.entries.findIndex((e) => e.kind === 'commit');
      return { ...page, entries: page.entries.filter((_, i) => i !== first) };
    };
    const r: CatchUpResult = await b.effects.catchUp({
      userId: b.userId,
      conversationId,
      deviceId: bDevice,
      after: joined.seq,
    });
    expect(r).toMatchObject({ epoch: null, removed: false, skipped: 1 });
    expect((await state(a, aDevice)).body.groups[0].toRemove).toEqual([bDevice]);
  }, 60_000);
});

describe('POST /api/secret/rejoin', () => {
  it('only for a live device of a member that is in the group; bad input a 4xx in Russian that changes nothing', async () => {
    const [anna, boris, vera] = await Promise.all([api.user('rjanna'), api.user('rjboris'), api.user('rjvera')]);
    await befriend(api, anna, boris);
    await befriend(api, anna, vera);
    const a = browser(anna);
    const b = browser(boris);
    const { deviceId: aDevice } = await a.effects.device(a.userId);
    const { deviceId: bDevice } = await b.effects.device(b.userId);
    const { conversationId } = await a.effects.create({ userId: a.userId, memberIds: [boris.user.id], title: null });
    const v = browser(vera);
    const { deviceId: vDevice } = await v.effects.device(v.userId);
    const plain = (await api.post('/api/conversations/with', { userId: boris.user.id }, anna.accessToken)).body
      .conversation.id;
    const rejoin = (token: string, body: unknown) => api.post('/api/secret/rejoin', body, token);
    const before = (await state(a, aDevice)).body;

    const refusals = [
      [await rejoin(vera.accessToken, { conversationId, deviceId: vDevice }), 404],
      [await rejoin(anna.accessToken, { conversationId, deviceId: bDevice }), 403],
      [await rejoin(anna.accessToken, { conversationId: plain, deviceId: aDevice }), 400],
      [await rejoin(anna.accessToken, { conversationId }), 400],
      [await rejoin(anna.accessToken, { conversationId, deviceId: aDevice, extra: 1 }), 400],
    ] as const;
    for (const [res, code] of refusals) {
      expect(res.status, JSON.stringify(res.body)).toBe(code);
      russian(res);
    }
    // A second sign-in of Борис's, a device not in the group: 403.
    const b2 = browser(await signInAgain(boris));
    const { deviceId: b2Device } = await approvedDevice(b2, b);
    const outside = await rejoin(b2.token, { conversationId, deviceId: b2Device });
    expect(outside.status).toBe(403);
    russian(outside);
    expect((await state(a, aDevice)).body.groups[0].toRemove).toEqual(before.groups[0].toRemove);

    // Without a request to rejoin, a commit may not remove and add the same device.
    const both = await api.post(
      '/api/secret/commits',
      {
        conversationId,
        deviceId: aDevice,
        epoch: 1,
        commit: Buffer.alloc(64, 1).toString('base64'),
        welcome: Buffer.alloc(64, 2).toString('base64'),
        added: [bDevice],
        removed: [bDevice],
      },
      anna.accessToken,
    );
    expect(both.status).toBe(400);
    russian(both);
    // Asked for by the device itself: 200, and asking twice is the same.
    expect((await rejoin(boris.accessToken, { conversationId, deviceId: bDevice })).status).toBe(200);
    expect((await rejoin(boris.accessToken, { conversationId, deviceId: bDevice })).status).toBe(200);
    expect((await state(a, aDevice)).body.groups[0].toRemove).toContain(bDevice);
  }, 60_000);
});

describe('a secret call with a track that is not encrypted', () => {
  it('unsubscribes it at once and names whose it is; encrypted tracks stay', () => {
    // livekit-client's own room and publications, as the media server's announcements make them.
    const room = new Room();
    const notices: string[] = [];
    const stop = dropUnencrypted(room, (n) => notices.push(n));
    const publication = (sid: string, type: TrackType, encryption: Encryption_Type) =>
      new RemoteTrackPublication(
        type === TrackType.AUDIO ? Track.Kind.Audio : Track.Kind.Video,
        new TrackInfo({ sid, name: sid, type, encryption }),
        true,
      );
    const boris = { identity: 'u-boris', name: 'Борис' } as RemoteParticipant;
    const clear = publication('TR_clear', TrackType.VIDEO, Encryption_Type.NONE);
    const sealed = publication('TR_sealed', TrackType.VIDEO, Encryption_Type.GCM);
    const clearAudio = publication('TR_audio', TrackType.AUDIO, Encryption_Type.NONE);
    expect(clear.isDesired).toBe(true);
    room.emit(RoomEvent.TrackPublished, clear, boris);
    room.emit(RoomEvent.TrackPublished, sealed, boris);
    room.emit(RoomEvent.TrackSubscribed, {} as never, clearAudio, boris);
    // Announced again (a renegotiation): dropped again, named once.
    room.emit(RoomEvent.TrackSubscribed, {} as never, clear, boris);
    expect(clear.isDesired).toBe(false);
    expect(clearAudio.isDesired).toBe(false);
    expect(sealed.isDesired).toBe(true);
    expect(notices).toEqual([unencryptedNotice('Борис', 'video'), unencryptedNotice('Борис', 'audio')]);
    expect(notices).toEqual(['Борис: видео без шифрования отключено', 'Борис: звук без шифрования отключён']);
    stop();
    room.emit(RoomEvent.TrackPublished, publication('TR_late', TrackType.VIDEO, Encryption_Type.NONE), boris);
    expect(notices).toHaveLength(2);
  });
});
