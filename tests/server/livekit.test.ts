// LiveKit tokens from the real server, checked with livekit-server-sdk's own verifier.
import { TokenVerifier } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_NO_LIVEKIT } from '../../server/livekit/webhook.routes';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let stranger: TestUser;
let conv: string;

beforeAll(async () => {
  // The proxied token test below speaks as the reverse proxy on this machine.
  srv = await startTestServer({ trustProxy: ['loopback'] });
  api = client(srv.url);
  [alice, bob, stranger] = await Promise.all([api.user('alice'), api.user('bob'), api.user('eve')]);
  await befriend(api, alice, bob);
  conv = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation.id;
});
afterAll(() => srv.close());

const verify = (token: string, s: TestServer = srv) =>
  new TokenVerifier(s.server.ctx.secrets.livekitApiKey, s.server.ctx.secrets.livekitApiSecret).verify(token);

describe('POST /api/livekit/token', () => {
  it('gives a member a token for the conversation room, with the server’s user id as identity', async () => {
    const res = await api.post(
      '/api/livekit/token',
      { room: `conv-${conv}`, participantName: 'Алиса', participantMetadata: { app: 'beseda', userId: bob.user.id } },
      alice.accessToken,
    );
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(`ws://127.0.0.1:${srv.config.sfu.port}`);
    const claims = await verify(res.body.token);
    expect(claims.sub).toBe(alice.user.id);
    expect(claims.name).toBe('Алиса');
    expect(JSON.parse(claims.metadata as string)).toEqual({ app: 'beseda', userId: alice.user.id });
    expect(claims.video).toMatchObject({
      room: `conv-${conv}`,
      roomJoin: true,
      canPublish: true,
      canSubscribe: true,
      canPublishData: true,
    });
  });

  it('refuses non-members and unknown conversations', async () => {
    const res = await api.post('/api/livekit/token', { room: `conv-${conv}` }, stranger.accessToken);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/участникам/);
    expect(res.body.token).toBeUndefined();
    expect((await api.post('/api/livekit/token', { room: 'conv-unknown' }, alice.accessToken)).status).toBe(403);
  });

  it('opens other room names to any signed-in user, named by their display name by default', async () => {
    const res = await api.post('/api/livekit/token', { room: 'demo-room' }, stranger.accessToken);
    expect(res.status).toBe(200);
    const claims = await verify(res.body.token);
    expect(claims.sub).toBe(stranger.user.id);
    expect(claims.name).toBe(stranger.user.displayName);
    expect(claims.video?.room).toBe('demo-room');
    expect((await api.post('/api/livekit/token', { room: 'demo-room' })).status).toBe(401);
  });

  it('answers 400 for bad bodies', async () => {
    for (const body of [
      {},
      { room: '   ' },
      { room: 'x'.repeat(129) },
      { room: 'a', extra: 1 },
      { room: 'a', participantMetadata: { blob: 'x'.repeat(2000) } },
    ]) {
      const res = await api.post('/api/livekit/token', body, alice.accessToken);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('points at the host name the client used, at SFU_PUBLIC_URL, or at LIVEKIT_URL when configured', async () => {
    const res = await api.call('POST', '/api/livekit/token', {
      body: { room: 'demo-room' },
      token: alice.accessToken,
      headers: { 'x-forwarded-host': 'chat.example.org:8443', 'x-forwarded-proto': 'https' },
    });
    expect(res.body.url).toBe(`wss://chat.example.org:${srv.config.sfu.port}`);
    const proxied = await startTestServer({ sfu: { ...srv.config.sfu, publicUrl: 'wss://chat.example.org/sfu' } });
    try {
      const p = client(proxied.url);
      const u = await p.user('prox');
      const r = await p.post('/api/livekit/token', { room: 'demo-room' }, u.accessToken);
      expect(r.body.url).toBe('wss://chat.example.org/sfu');
    } finally {
      await proxied.close();
    }
    const external = await startTestServer({
      livekit: { url: 'wss://lk.example.net', apiKey: 'APIexternal', apiSecret: 's'.repeat(40) },
    });
    try {
      const x = client(external.url);
      const u = await x.user('ext');
      const r = await x.post('/api/livekit/token', { room: 'demo-room' }, u.accessToken);
      expect(r.body.url).toBe('wss://lk.example.net');
      const claims = await new TokenVerifier('APIexternal', 's'.repeat(40)).verify(r.body.token);
      expect(claims.sub).toBe(u.user.id);
    } finally {
      await external.close();
    }
  });
});

describe('POST /api/livekit/webhook', () => {
  it('is not there without LIVEKIT_URL: the embedded media server tells the app in-process', async () => {
    const res = await fetch(`${srv.url}/api/livekit/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/webhook+json' },
      body: '{"event":"room_finished","room":{"name":"conv-x"}}',
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe(WEBHOOK_NO_LIVEKIT);
  });
});
