// The app's token route and the embedded SFU wired as in `npm start`: the token and URL from
// POST /api/livekit/token let two @livekit/rtc-node clients call each other through the SFU.
import net from 'node:net';
import { dispose } from '@livekit/rtc-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RustParticipant } from '../../e2e/sfu-page/rust-client';
import { type Sfu, startSfu } from '../../server/sfu/index';
import { client, startTestServer, type TestServer } from './harness';

let app: TestServer;
let sfu: Sfu;
const clients: RustParticipant[] = [];

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

beforeAll(async () => {
  const sfuPort = await freePort();
  app = await startTestServer({
    sfu: { port: sfuPort, hostCandidates: ['127.0.0.1'], udpPortRange: null, publicUrl: null },
  });
  // As server/main.ts does: the SFU checks tokens with the key and secret the token route signs with.
  sfu = await startSfu({
    port: sfuPort,
    host: '127.0.0.1',
    apiKey: app.server.ctx.secrets.livekitApiKey,
    apiSecret: app.server.ctx.secrets.livekitApiSecret,
    hostCandidates: ['127.0.0.1'],
  });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await sfu?.close();
  await app?.close();
  await dispose();
});

describe('token route + embedded SFU', () => {
  it('a token from POST /api/livekit/token joins the embedded SFU at the URL it names', {
    timeout: 40_000,
  }, async () => {
    const http = client(app.url);
    const joinAs = async (prefix: string) => {
      const user = await http.user(prefix);
      const res = await http.post<{ token: string; url: string }>(
        '/api/livekit/token',
        { room: 'sfu-open-room' },
        user.accessToken,
      );
      expect(res.status).toBe(200);
      expect(res.body.url).toBe(sfu.url);
      const c = new RustParticipant();
      clients.push(c);
      await c.connect(res.body.url, res.body.token);
      return c;
    };
    const caller = await joinAs('caller');
    const callee = await joinAs('callee');
    await caller.publishToneAndPattern();
    await expect
      .poll(() => [...callee.received.videoFrames.values()][0]?.frames ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(5);
    expect(await sfu.participants('sfu-open-room')).toHaveLength(2);
  });
});
