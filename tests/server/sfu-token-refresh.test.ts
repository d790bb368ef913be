// The embedded SFU hands connected participants fresh tokens (SignalResponse.refreshToken) as LiveKit's server
// does, so a client whose connection drops after its original token expired still gets back in. With a 2-second
// token and a refresh every second, the test moves the SFU's token clock past the original expiry (and the 5 s
// clock tolerance) once a refreshed token has arrived, then drops the signal connection: the raw client resumes
// with the refreshed token (the original is refused), and a real client (@livekit/rtc-node, LiveKit's Rust SDK)
// resumes by itself and keeps exchanging data.
import { JoinRequest, SignalResponse, WrappedJoinRequest, WrappedJoinRequest_Compression } from '@livekit/protocol';
import { dispose, RoomEvent } from '@livekit/rtc-node';
import { decodeJwt, jwtVerify } from 'jose';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { RustParticipant } from '../../e2e/sfu-page/rust-client';
import { type Sfu, startSfu } from '../../server/sfu/index';
import { type ManualClock, manualClock } from './manual-clock';

const apiKey = 'APIrefresh';
const apiSecret = 'refresh-test-secret-0123456789-0123456789-abc';
let sfu: Sfu;
const clients: RustParticipant[] = [];
let clock: ManualClock;

beforeAll(async () => {
  clock = manualClock();
  sfu = await startSfu({
    now: () => clock.now(),
    port: 0,
    host: '127.0.0.1',
    apiKey,
    apiSecret,
    hostCandidates: ['127.0.0.1'],
    pingTimeout: 60,
    tokenRefreshInterval: 1,
    tokenTtl: 120,
  });
});
// Tokens are made on the real clock: a clock an earlier test moved past its token's expiry (and the tolerance) would
// find the next test's fresh token already expired whenever that earlier test took under a second or so.
beforeEach(() => {
  clock = manualClock();
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await sfu.close();
  await dispose();
});

async function shortToken(identity: string, room: string): Promise<string> {
  const at = new AccessToken(apiKey, apiSecret, { identity, name: identity, ttl: 2 });
  at.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
  return at.toJwt();
}

/** Moves the SFU's clock past `token`'s expiry, including its 5-second clock tolerance. */
function outlive(token: string): void {
  const exp = (decodeJwt(token).exp as number) * 1000;
  clock.advance(Math.max(0, exp + 6000 - clock.now()));
}

interface RawClient {
  ws: WebSocket;
  messages: SignalResponse[];
  next(kind: string, ms?: number): Promise<SignalResponse>;
}

function open(query: string): Promise<RawClient | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${sfu.url}/rtc/v1?${query}`);
    const messages: SignalResponse[] = [];
    ws.on('message', (d) => messages.push(SignalResponse.fromBinary(d as Buffer)));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => {});
    ws.on('open', () =>
      resolve({
        ws,
        messages,
        next: (kind, ms = 5000) =>
          vi.waitFor(
            () => {
              const found = messages.find((m) => m.message.case === kind);
              if (!found) throw new Error(`no ${kind}`);
              return found;
            },
            { timeout: ms, interval: 20 },
          ),
      }),
    );
  });
}

const resumeQuery = (token: string, sid: string) => {
  const join = new JoinRequest({ reconnect: true, participantSid: sid });
  const wrapped = new WrappedJoinRequest({
    compression: WrappedJoinRequest_Compression.NONE,
    joinRequest: join.toBinary(),
  });
  return `access_token=${token}&join_request=${Buffer.from(wrapped.toBinary()).toString('base64url')}`;
};

describe('token refresh', () => {
  it('sends a fresh token that resumes the session after the original expired', { timeout: 30_000 }, async () => {
    const original = await shortToken('raw-ann', 'refresh-raw');
    const c = (await open(`access_token=${original}`)) as RawClient;
    const join = await c.next('join');
    const sid = join.message.case === 'join' ? (join.message.value.participant?.sid ?? '') : '';
    const msg = await c.next('refreshToken', 4000);
    const fresh = msg.message.case === 'refreshToken' ? msg.message.value : '';
    const { payload } = await jwtVerify(fresh, new TextEncoder().encode(apiSecret), {
      issuer: apiKey,
      algorithms: ['HS256'],
    });
    expect(payload).toMatchObject({
      sub: 'raw-ann',
      name: 'raw-ann',
      video: { room: 'refresh-raw', roomJoin: true, canPublish: true },
    });
    expect((payload.exp as number) - (payload.nbf as number)).toBe(120);

    // The original runs out, then the connection is lost.
    outlive(original);
    const latest = c.messages.filter((m) => m.message.case === 'refreshToken').at(-1);
    const newest = latest?.message.case === 'refreshToken' ? latest.message.value : fresh;
    c.ws.terminate();

    expect(await open(resumeQuery(original, sid))).toBe(401);
    const back = (await open(resumeQuery(newest, sid))) as RawClient;
    expect((await back.next('reconnect')).message.case).toBe('reconnect');
    expect(sfu.rooms.get('refresh-raw')?.participants.get(sid)?.identity).toBe('raw-ann');
    back.ws.close();
  });

  it('a Rust SDK client resumes after its original token expired and keeps exchanging data', {
    timeout: 60_000,
  }, async () => {
    const room = 'refresh-rust';
    const a = new RustParticipant();
    const b = new RustParticipant();
    clients.push(a, b);
    const tokenA = await shortToken('rust-a', room);
    const refreshed = new Promise<void>((resolve) => a.room.once(RoomEvent.TokenRefreshed, resolve));
    await a.connect(sfu.url, tokenA);
    await b.connect(sfu.url, await shortToken('rust-b', room));
    const events: string[] = [];
    a.room
      .on(RoomEvent.Reconnected, () => events.push('reconnected'))
      .on(RoomEvent.Disconnected, () => events.push('disconnected'));
    await refreshed;
    outlive(tokenA);

    // Drop a's signal connection as a network loss would.
    const p = [...(sfu.rooms.get(room)?.participants.values() ?? [])].find((x) => x.identity === 'rust-a');
    (p as unknown as { signal: { ws: WebSocket } }).signal.ws.terminate();
    await expect.poll(() => events, { timeout: 30_000 }).toContain('reconnected');
    expect(events).not.toContain('disconnected');

    await a.publishText('after the token ran out');
    await expect
      .poll(() => b.received.data, { timeout: 10_000 })
      .toContainEqual({ from: 'rust-a', text: 'after the token ran out' });
  });
});
