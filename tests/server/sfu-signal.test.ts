// The embedded SFU's signalling edge with a raw websocket: tokens, validate endpoint, malformed and unknown
// frames (each closes only its own connection), ping/pong, grants, and removal of a client that goes silent.
import { AddTrackRequest, DisconnectReason, SignalRequest, SignalResponse, TrackType } from '@livekit/protocol';
import { SignJWT } from 'jose';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Sfu, startSfu } from '../../server/sfu/index';

const apiKey = 'APIsignaltest';
const apiSecret = 'signal-test-secret-0123456789-0123456789-abcdef';
let sfu: Sfu;

beforeAll(async () => {
  sfu = await startSfu({
    port: 0,
    host: '127.0.0.1',
    apiKey,
    apiSecret,
    hostCandidates: ['127.0.0.1'],
    pingTimeout: 2,
  });
});
afterAll(async () => {
  await sfu.close();
});

async function token(
  identity: string,
  room: string,
  grant: Record<string, unknown> = {},
  secret = apiSecret,
  ttl: number | string = '5m',
) {
  const at = new AccessToken(apiKey, secret, { identity, ttl });
  at.addGrant({ room, roomJoin: true, ...grant });
  return at.toJwt();
}

interface Client {
  ws: WebSocket;
  messages: SignalResponse[];
  closed: Promise<{ code: number; reason: string }>;
  next(kind: string, timeoutMs?: number): Promise<SignalResponse>;
  send(msg: SignalRequest['message']): void;
}

async function connect(jwt: string): Promise<Client> {
  const ws = new WebSocket(`${sfu.url}/rtc/v1?access_token=${jwt}`);
  const messages: SignalResponse[] = [];
  /** Callbacks that look again for what they wait for, each time a message arrives. */
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    messages.push(SignalResponse.fromBinary(data as Buffer));
    for (const w of [...waiters]) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  // A bound, not a timing claim: the first join of a test process loads and starts the media stack (werift, the
  // DTLS certificate), which took over 3 s with the machine's two cores at a load of 15.
  const next = (kind: string, timeoutMs = 15_000) =>
    new Promise<SignalResponse>((resolve, reject) => {
      const find = () => messages.find((m) => m.message.case === kind);
      const already = find();
      if (already) return resolve(already);
      const look = () => {
        const found = find();
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(look);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no ${kind} message`));
      }, timeoutMs);
      waiters.add(look);
    });
  const send = (message: SignalRequest['message']) => ws.send(new SignalRequest({ message }).toBinary());
  return { ws, messages, closed, next, send };
}

async function refusal(jwt: string): Promise<{ upgrade: number; validate: number; body: string }> {
  const upgrade = await new Promise<number>((resolve) => {
    const ws = new WebSocket(`${sfu.url}/rtc/v1?access_token=${jwt}`);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => resolve(101));
    ws.on('error', () => {});
  });
  const res = await fetch(`${sfu.url.replace('ws', 'http')}/rtc/v1/validate?access_token=${jwt}`);
  return { upgrade, validate: res.status, body: await res.text() };
}

describe('embedded SFU signalling', () => {
  it('answers the first frame with join, then ping and pingReq', async () => {
    const c = await connect(await token('ann', 'r1'));
    const join = await c.next('join');
    expect(join.message.case === 'join' && join.message.value.participant?.identity).toBe('ann');
    expect(join.message.case === 'join' && join.message.value.room?.name).toBe('r1');
    expect(c.messages[0]?.message.case).toBe('join');
    c.send({ case: 'pingReq', value: { timestamp: 1234n, rtt: 0n } as never });
    const pong = await c.next('pongResp');
    expect(pong.message.case === 'pongResp' && pong.message.value.lastPingTimestamp).toBe(1234n);
    c.send({ case: 'ping', value: 99n });
    await c.next('pong');
    c.send({ case: 'leave', value: {} as never });
    expect((await c.closed).code).toBe(1000);
  });

  it('validates tokens: good, wrong secret, expired, no room grant', async () => {
    const good = await fetch(`${sfu.url.replace('ws', 'http')}/rtc/v1/validate?access_token=${await token('v', 'r2')}`);
    expect(good.status).toBe(200);
    const wrong = await refusal(await token('v', 'r2', {}, 'another-secret-another-secret-another-secret'));
    expect(wrong).toMatchObject({ upgrade: 401, validate: 401 });
    expect(wrong.body).toMatch(/invalid token/);
    const expired = await refusal(await token('v', 'r2', {}, apiSecret, -60));
    expect(expired).toMatchObject({ upgrade: 401, validate: 401 });
    expect(expired.body).toMatch(/expired/);
    const noJoin = await refusal(await token('v', 'r2', { roomJoin: false }));
    expect(noJoin.body).toMatch(/roomJoin/);
    const none = await refusal('');
    expect(none.body).toMatch(/missing access_token/);
    const base = sfu.url.replace('ws', 'http');
    const garbled = await fetch(
      `${base}/rtc/v1/validate?access_token=${await token('v', 'r2')}&join_request=%%%not-base64`,
    );
    expect(garbled.status).toBe(400);
    expect(await garbled.text()).toBe('malformed join_request');
    expect(await sfu.participants('r2')).toEqual([]);
  });

  it('closes only the offending connection on a malformed or unknown frame', async () => {
    const bystander = await connect(await token('by', 'r3'));
    await bystander.next('join');

    const garbage = await connect(await token('g', 'r3'));
    await garbage.next('join');
    garbage.ws.send(Buffer.from([0xff, 0xff, 0xff, 0x01, 0x02]));
    expect(await garbage.closed).toEqual({ code: 1007, reason: expect.stringMatching(/malformed signal frame/) });

    const text = await connect(await token('t', 'r3'));
    await text.next('join');
    text.ws.send('{not json');
    expect((await text.closed).code).toBe(1007);

    const unknown = await connect(await token('u', 'r3'));
    await unknown.next('join');
    unknown.ws.send(Buffer.alloc(0));
    expect(await unknown.closed).toEqual({ code: 1003, reason: 'unknown signal request' });

    const badOffer = await connect(await token('o', 'r3'));
    await badOffer.next('join');
    badOffer.send({ case: 'offer', value: { type: 'offer', sdp: 'v=0\r\nthis is not sdp', id: 1 } as never });
    expect(await badOffer.closed).toEqual({ code: 1007, reason: expect.stringMatching(/could not apply offer/) });

    // The server and the other participant carry on.
    bystander.send({ case: 'ping', value: 1n });
    await bystander.next('pong');
    const later = await connect(await token('later', 'r3'));
    await later.next('join');
    later.ws.close();
    bystander.ws.close();
  });

  it('a second connection with the same identity replaces the first, which is told not to come back', async () => {
    const first = await connect(await token('twin', 'r6'));
    await first.next('join');
    const second = await connect(await token('twin', 'r6'));
    await second.next('join');
    const leave = await first.next('leave');
    expect(leave.message.case === 'leave' && leave.message.value.reason).toBe(2); // DUPLICATE_IDENTITY
    expect(leave.message.case === 'leave' && leave.message.value.canReconnect).toBe(false);
    await first.closed;
    expect((await sfu.participants('r6')).map((p) => p.identity)).toEqual(['twin']);
    second.ws.close();
  });

  it('refuses to publish without the canPublish grant', async () => {
    const viewer = await connect(await token('viewer', 'r4', { canPublish: false }));
    await viewer.next('join');
    viewer.send({ case: 'addTrack', value: new AddTrackRequest({ cid: 'c1', type: TrackType.AUDIO, name: 'mic' }) });
    // The barrier: the SFU handles a connection's frames in order and answers a ping at once, so a trackPublished
    // for the addTrack would have arrived before this pong.
    viewer.send({ case: 'ping', value: 2n });
    await viewer.next('pong');
    expect(viewer.messages.map((m) => m.message.case)).not.toContain('trackPublished');

    const speaker = await connect(await token('speaker', 'r4'));
    await speaker.next('join');
    speaker.send({ case: 'addTrack', value: new AddTrackRequest({ cid: 'c2', type: TrackType.AUDIO, name: 'mic' }) });
    const published = await speaker.next('trackPublished');
    expect(published.message.case === 'trackPublished' && published.message.value.track?.sid).toMatch(/^TR_/);
    viewer.ws.close();
    speaker.ws.close();
  });

  it('announces joins and removes a client that stops talking after the ping timeout', async () => {
    const stay = await connect(await token('stay', 'r5'));
    await stay.next('join');
    const keepAlive = setInterval(() => stay.send({ case: 'ping', value: 1n }), 500);
    const vanish = await connect(await token('vanish', 'r5'));
    await vanish.next('join');
    const seen = () =>
      stay.messages
        .flatMap((m) => (m.message.case === 'update' ? m.message.value.participants : []))
        .filter((p) => p.identity === 'vanish');
    await expect.poll(() => seen().length).toBeGreaterThan(0);
    // Silence, without a leave: the server must drop it by itself (pingTimeout is 2 s here).
    vanish.ws.pause();
    await expect.poll(async () => (await sfu.participants('r5')).length, { timeout: 6000 }).toBe(1);
    // The room's list drops it before the update crosses the other client's socket.
    await expect.poll(() => seen().at(-1)?.state).toBe(3); // DISCONNECTED
    clearInterval(keepAlive);
    stay.send({ case: 'leave', value: {} as never });
    await stay.closed;
    await expect.poll(async () => (await sfu.participants('r5')).length).toBe(0);
  });

  it('removes a participant who lost access to the conversation, telling the client why', async () => {
    const c = await connect(await token('gone', 'conv-removed'));
    await c.next('join');
    const stays = await connect(await token('stays', 'conv-removed'));
    await stays.next('join');
    expect(await sfu.removeParticipants('conv-removed', ['gone', 'nobody'])).toBe(1);
    const leave = await c.next('leave');
    expect(leave.message.case === 'leave' && leave.message.value.reason).toBe(DisconnectReason.PARTICIPANT_REMOVED);
    await c.closed;
    expect((await sfu.participants('conv-removed')).map((p) => p.identity)).toEqual(['stays']);
    expect(await sfu.removeParticipants('no-such-room', ['stays'])).toBe(0);
    stays.send({ case: 'leave', value: {} as never });
    await stays.closed;
  });

  it("refuses a removed participant's token from before the removal; a token issued after it joins", async () => {
    const before = await token('ousted', 'conv-ousted');
    const elsewhere = await token('ousted', 'conv-other');
    const c = await connect(before);
    await c.next('join');
    expect(await sfu.removeParticipants('conv-ousted', ['ousted'])).toBe(1);
    await c.closed;
    const refused = await refusal(before);
    expect(refused).toMatchObject({ upgrade: 403, validate: 403 });
    expect(refused.body).toContain('removed from the room');
    // The same identity in another room, and a token the app issues after the removal (its nbf in a later second).
    const other = await connect(elsewhere);
    await other.next('join');
    other.send({ case: 'leave', value: {} as never });
    const after = await new SignJWT({ video: { room: 'conv-ousted', roomJoin: true } })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(apiKey)
      .setSubject('ousted')
      .setNotBefore(Math.floor(Date.now() / 1000) + 1)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(apiSecret));
    const back = await connect(after);
    const join = await back.next('join');
    expect(join.message.case === 'join' && join.message.value.participant?.identity).toBe('ousted');
    back.send({ case: 'leave', value: {} as never });
    await back.closed;
  });
});
