// TURN credentials in LiveKit's join and reconnect responses: coturn's REST scheme (username "<expiry>:<identity>",
// credential base64 HMAC-SHA1 of it with the shared secret), and the TURN_URLS / TURN_SECRET settings.
import { createHmac } from 'node:crypto';
import { type ICEServer, SignalResponse } from '@livekit/protocol';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Sfu, startSfu } from '../../server/sfu/index';
import { turnFromEnv } from '../../server/sfu/transport/turn';

const apiKey = 'APIturntest';
const apiSecret = 'turn-test-secret-0123456789-0123456789-abcdef';
const turnSecret = 'coturn-static-auth-secret';
const urls = [
  'turn:turn.example.org:3478?transport=udp',
  'turn:turn.example.org:3478?transport=tcp',
  'turns:turn.example.org:5349',
];
let sfu: Sfu;

beforeAll(async () => {
  sfu = await startSfu({
    port: 0,
    host: '127.0.0.1',
    apiKey,
    apiSecret,
    hostCandidates: ['127.0.0.1'],
    turn: { urls, secret: turnSecret, ttl: 3600 },
  });
});
afterAll(async () => {
  await sfu.close();
});

async function firstMessage(path: string, identity: string): Promise<{ msg: SignalResponse; ws: WebSocket }> {
  const at = new AccessToken(apiKey, apiSecret, { identity });
  at.addGrant({ room: 'turn-room', roomJoin: true });
  const sep = path.includes('?') ? '&' : '?';
  const ws = new WebSocket(`${sfu.url}${path}${sep}access_token=${await at.toJwt()}`);
  const msg = await new Promise<SignalResponse>((resolve, reject) => {
    ws.once('message', (data) => resolve(SignalResponse.fromBinary(data as Buffer)));
    ws.once('error', reject);
  });
  return { msg, ws };
}

function expectCoturnCredentials(servers: ICEServer[], identity: string): void {
  expect(servers).toHaveLength(1);
  const s = servers[0] as ICEServer;
  expect(s.urls).toEqual(urls);
  const [expiry, who] = s.username.split(':');
  expect(who).toBe(identity);
  const now = Date.now() / 1000;
  expect(Number(expiry)).toBeGreaterThan(now + 3500);
  expect(Number(expiry)).toBeLessThan(now + 3700);
  expect(s.credential).toBe(createHmac('sha1', turnSecret).update(s.username).digest('base64'));
}

describe('TURN credentials from the embedded SFU', () => {
  it('puts fresh coturn credentials in the join response and in the reconnect response', async () => {
    const { msg, ws } = await firstMessage('/rtc', 'tia');
    expect(msg.message.case).toBe('join');
    if (msg.message.case !== 'join') return;
    expectCoturnCredentials(msg.message.value.iceServers, 'tia');
    const sid = msg.message.value.participant?.sid ?? '';
    // The signal websocket drops; the client resumes its session on a new one.
    ws.terminate();
    const again = await firstMessage(`/rtc?reconnect=1&sid=${sid}`, 'tia');
    expect(again.msg.message.case).toBe('reconnect');
    if (again.msg.message.case === 'reconnect') expectCoturnCredentials(again.msg.message.value.iceServers, 'tia');
    again.ws.close();
  });

  it('reads TURN_URLS and TURN_SECRET, and refuses half or malformed settings', () => {
    expect(turnFromEnv({})).toBeNull();
    expect(turnFromEnv({ TURN_URLS: `${urls.join(', ')}`, TURN_SECRET: 's' })).toEqual({ urls, secret: 's' });
    expect(() => turnFromEnv({ TURN_URLS: urls[0] })).toThrow(/TURN_SECRET/);
    expect(() => turnFromEnv({ TURN_URLS: 'http://turn.example.org', TURN_SECRET: 's' })).toThrow(
      /Invalid TURN_URLS entry/,
    );
  });
});
