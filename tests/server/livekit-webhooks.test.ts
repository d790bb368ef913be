// The app with an external LiveKit (LIVEKIT_URL): here the embedded media server started on its own, as LiveKit
// would run beside the app, sending its LiveKit-format webhooks to POST /api/livekit/webhook and answering the
// RoomService calls. Rust SDK clients (@livekit/rtc-node) joining and leaving the group's media room move the
// group's call (the roster, the end), «Удалить из звонка» drops the person from the media server, and a forged,
// tampered or malformed webhook is refused. Repeated and late events change nothing. SQLite and (TEST_PG_URL)
// PostgreSQL.
import { createHash } from 'node:crypto';
import net from 'node:net';
import { ParticipantInfo, Room as RoomMessage, WebhookEvent } from '@livekit/protocol';
import { dispose } from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RustParticipant } from '../../e2e/sfu-page/rust-client';
import { WEBHOOK_MALFORMED, WEBHOOK_UNSIGNED } from '../../server/livekit/webhook.routes';
import { type Sfu, startSfu } from '../../server/sfu/index';
import type { GroupCall } from '../../src/contract/entities';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, ack, befriend, closeAll, connect, type TestUser } from './socket-helpers';

const apiKey = 'APIwebhooks';
const apiSecret = 'webhooks-test-secret-0123456789-0123456789';
let srv: TestServer;
let sfu: Sfu;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let gid: string;
const clients: RustParticipant[] = [];

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  const sfuPort = await freePort();
  srv = await startTestServer({ livekit: { url: `ws://127.0.0.1:${sfuPort}`, apiKey, apiSecret } });
  sfu = await startSfu({
    port: sfuPort,
    host: '127.0.0.1',
    apiKey,
    apiSecret,
    hostCandidates: ['127.0.0.1'],
    webhookUrls: [`${srv.url}/api/livekit/webhook`],
  });
  api = client(srv.url);
  [anna, boris] = await Promise.all(['anna', 'boris'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  closeAll();
});
afterAll(async () => {
  await sfu?.close();
  await srv?.close();
  await dispose();
});

beforeEach(async () => {
  const res = await api.post(
    '/api/conversations',
    { participantIds: [boris.user.id], title: 'Созвон', isGroup: true },
    anna.accessToken,
  );
  expect(res.status).toBe(200);
  gid = res.body.conversation.id;
});

const room = () => `conv-${gid}`;
const callNow = async () =>
  (await api.get<{ call: GroupCall | null }>(`/api/conversations/${gid}/call`, anna.accessToken)).body.call;
const inCall = async () => (await callNow())?.participantIds ?? null;

/** Anna opens the group's call from her socket, as «Позвонить» does. */
async function annaStarts(): Promise<void> {
  const a = await connect(srv.url, anna.accessToken);
  expect(await ack(a, 'groupCall:start', { conversationId: gid, video: false })).toEqual({ ok: true });
}

/** A Rust SDK client in the group's media room with a token from the token route (it names LIVEKIT_URL). */
async function joinMedia(u: TestUser, token?: string): Promise<RustParticipant & { token: string }> {
  let t = token;
  if (!t) {
    const res = await api.post<{ token: string; url: string }>('/api/livekit/token', { room: room() }, u.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(sfu.url);
    t = res.body.token;
  }
  const c = new RustParticipant();
  clients.push(c);
  await c.connect(sfu.url, t);
  return Object.assign(c, { token: t });
}

/** A webhook as LiveKit signs it (with `secret`), posted to the app. */
async function post(body: string, secret = apiSecret, sha = body) {
  const at = new AccessToken(apiKey, secret);
  at.sha256 = createHash('sha256').update(sha).digest('base64');
  return fetch(`${srv.url}/api/livekit/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/webhook+json', authorization: await at.toJwt() },
    body,
  });
}

let eventNo = 0;
const webhook = (event: string, extra: { identity?: string; sid?: string; createdAt?: number; id?: string } = {}) =>
  new WebhookEvent({
    event,
    id: extra.id ?? `EV_test${++eventNo}`,
    createdAt: BigInt(Math.floor((extra.createdAt ?? Date.now()) / 1000)),
    room: new RoomMessage({ sid: 'RM_test', name: room() }),
    participant: extra.identity
      ? new ParticipantInfo({
          identity: extra.identity,
          sid: extra.sid ?? 'PA_test',
          joinedAt: BigInt(Math.floor(Date.now() / 1000) + 1),
        })
      : undefined,
  }).toJsonString();

describe('an external LiveKit: its webhooks move the group call', () => {
  it('members joining and leaving the media room are in and out of the call; the last one out ends it', {
    timeout: 60_000,
  }, async () => {
    // Who is in the room reaches the same listeners as from an embedded media server (guests' admission).
    const heard: Array<[string, string[]]> = [];
    const stop = srv.server.app.mediaRooms.onParticipants((r, ids) => {
      if (r === room()) heard.push([r, [...ids].sort()]);
    });
    await annaStarts();
    const a = await joinMedia(anna);
    const b = await joinMedia(boris);
    await expect.poll(inCall, { timeout: 15_000 }).toEqual([anna.user.id, boris.user.id]);
    await expect.poll(() => heard.at(-1)?.[1]).toEqual([anna.user.id, boris.user.id].sort());
    await b.close();
    await expect.poll(inCall, { timeout: 15_000 }).toEqual([anna.user.id]);
    await a.close();
    await expect.poll(callNow, { timeout: 15_000 }).toBeNull();
    await expect.poll(() => heard.at(-1)?.[1]).toEqual([]);
    stop();
    // The call's entry was written once: both took part.
    const msgs = await api.get<{ messages: Array<{ type: string; call?: { participantIds?: string[] } }> }>(
      `/api/conversations/${gid}/messages`,
      anna.accessToken,
    );
    const entries = msgs.body.messages.filter((m) => m.type === 'CALL');
    expect(entries).toHaveLength(1);
    expect(entries[0]?.call?.participantIds).toEqual([anna.user.id, boris.user.id]);
  });

  it('«Удалить из звонка» drops the person from the media server and keeps them out of the call', {
    timeout: 60_000,
  }, async () => {
    await annaStarts();
    await joinMedia(anna);
    const b = await joinMedia(boris);
    await expect.poll(inCall, { timeout: 15_000 }).toEqual([anna.user.id, boris.user.id]);
    const res = await api.post(`/api/conversations/${gid}/call/remove`, { userId: boris.user.id }, anna.accessToken);
    expect(res.status).toBe(200);
    await expect
      .poll(async () => (await sfu.participants(room())).map((p) => p.identity), { timeout: 15_000 })
      .toEqual([anna.user.id]);
    expect(await inCall()).toEqual([anna.user.id]);
    // The token his tab held was issued before the removal: the media server no longer lets it in.
    await expect(joinMedia(boris, b.token)).rejects.toThrow();
    expect((await sfu.participants(room())).map((p) => p.identity)).toEqual([anna.user.id]);
  });

  it("the media server's RoomService wants a token with roomAdmin for the room", async () => {
    const call = async (grant: { roomAdmin?: boolean; roomJoin?: boolean; room: string }) => {
      const at = new AccessToken(apiKey, apiSecret, { identity: anna.user.id });
      at.addGrant(grant);
      return fetch(`${sfu.url.replace('ws', 'http')}/twirp/livekit.RoomService/ListParticipants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await at.toJwt()}` },
        body: JSON.stringify({ room: room() }),
      });
    };
    expect((await call({ roomJoin: true, room: room() })).status).toBe(403);
    expect((await call({ roomAdmin: true, room: 'another-room' })).status).toBe(403);
    const ok = await call({ roomAdmin: true, room: room() });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({});
  });

  it('repeated and late events change nothing; a room that finished ends the call it belonged to', async () => {
    await annaStarts();
    const boris1 = { identity: boris.user.id, sid: 'PA_boris1' };
    const joined = webhook('participant_joined', boris1);
    expect((await post(joined)).status).toBe(200);
    expect(await inCall()).toEqual([anna.user.id, boris.user.id]);
    // The same delivery again, and the same event under another id.
    expect((await post(joined)).status).toBe(200);
    expect((await post(webhook('participant_joined', boris1))).status).toBe(200);
    expect(await inCall()).toEqual([anna.user.id, boris.user.id]);
    // Another connection's leave (an older tab) leaves him in.
    expect((await post(webhook('participant_left', { ...boris1, sid: 'PA_older' }))).status).toBe(200);
    expect(await inCall()).toEqual([anna.user.id, boris.user.id]);
    expect((await post(webhook('participant_left', boris1))).status).toBe(200);
    expect(await inCall()).toEqual([anna.user.id]);
    // The join of the connection that has left, delivered again, does not bring him back.
    expect((await post(webhook('participant_joined', boris1))).status).toBe(200);
    expect(await inCall()).toEqual([anna.user.id]);
    // A guest's identity is the guest links' business, not the roster's.
    expect((await post(webhook('participant_joined', { identity: 'guest:knock1', sid: 'PA_guest' }))).status).toBe(200);
    expect(await inCall()).toEqual([anna.user.id]);
    // A room_finished from before this call began (a late retry) leaves it on; one from now ends it.
    expect((await post(webhook('room_finished', { createdAt: Date.now() - 60_000 }))).status).toBe(200);
    expect(await callNow()).not.toBeNull();
    expect((await post(webhook('room_finished'))).status).toBe(200);
    expect(await callNow()).toBeNull();
  });

  it('refuses an unsigned, wrongly signed or tampered webhook (401) and a malformed one (400); ignores others', async () => {
    await annaStarts();
    const body = webhook('participant_joined', { identity: boris.user.id, sid: 'PA_forged' });
    const unsigned = await fetch(`${srv.url}/api/livekit/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/webhook+json' },
      body,
    });
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { message: string }).message).toBe(WEBHOOK_UNSIGNED);
    expect((await post(body, 'another-secret-0123456789-0123456789-0123')).status).toBe(401);
    expect((await post(body, apiSecret, webhook('participant_joined', { identity: anna.user.id }))).status).toBe(401);
    expect(await inCall()).toEqual([anna.user.id]);

    const malformed = await post('{"event": ');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { message: string }).message).toBe(WEBHOOK_MALFORMED);
    expect((await post(webhook('participant_joined'))).status).toBe(400);

    expect((await post(webhook('track_published', { identity: boris.user.id }))).status).toBe(200);
    const otherRoom = new WebhookEvent({
      event: 'participant_joined',
      id: 'EV_other',
      room: new RoomMessage({ name: 'some-open-room' }),
      participant: new ParticipantInfo({ identity: boris.user.id, sid: 'PA_x' }),
    }).toJsonString();
    expect((await post(otherRoom)).status).toBe(200);
    expect(await inCall()).toEqual([anna.user.id]);
  });
});
