// Test harness for the SFU specs: starts the embedded SFU on a free port, bundles this page with esbuild into a
// temporary directory (never dist/, which the app build owns) and serves it over http on loopback.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { AccessToken, type VideoGrant } from 'livekit-server-sdk';
import { type Sfu, startSfu } from '../../server/sfu/index';
import type { SfuTransport } from '../../server/sfu/session/peer';
import type { TurnOptions } from '../../server/sfu/transport/turn';

export const apiKey = 'APItestkey';
export const apiSecret = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const here = path.dirname(fileURLToPath(import.meta.url));

export interface SfuHarness {
  sfu: Sfu;
  pageUrl: string;
  close(): Promise<void>;
}

export async function startSfuHarness(
  opts: {
    pingInterval?: number;
    pingTimeout?: number;
    turn?: TurnOptions;
    bandwidthAllocation?: boolean;
    uplinkFeedback?: boolean;
    /** Media worker threads; 0 (the default here) keeps the rooms in this process, where the specs look into them. */
    workers?: number;
    /** WebRTC under the media path (SFU_TRANSPORT); default werift. */
    transport?: SfuTransport;
  } = {},
): Promise<SfuHarness> {
  const sfu = await startSfu({
    port: 0,
    host: '127.0.0.1',
    apiKey,
    apiSecret,
    hostCandidates: ['127.0.0.1'],
    pingInterval: opts.pingInterval,
    pingTimeout: opts.pingTimeout,
    turn: opts.turn ?? null,
    bandwidthAllocation: opts.bandwidthAllocation,
    uplinkFeedback: opts.uplinkFeedback,
    workers: opts.workers ?? 0,
    transport: opts.transport ?? 'werift',
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sfu-page-'));
  await build({
    entryPoints: [path.join(here, 'main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: path.join(dir, 'app.js'),
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(here, 'index.html'), path.join(dir, 'index.html'));
  // livekit's own e2ee worker, for callers that encrypt end to end (join's `e2ee`).
  fs.copyFileSync(
    path.join(here, '../../node_modules/livekit-client/dist/livekit-client.e2ee.worker.mjs'),
    path.join(dir, 'e2ee-worker.js'),
  );
  const server = http.createServer((req, res) => {
    const name = req.url === '/' ? 'index.html' : path.basename(req.url ?? '');
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': name.endsWith('.js') ? 'text/javascript' : 'text/html' });
    res.end(fs.readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    sfu,
    pageUrl,
    close: async () => {
      await sfu.close();
      await new Promise<void>((r) => server.close(() => r()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function mintToken(
  identity: string,
  room: string,
  grant: Partial<VideoGrant> = {},
  opts: { ttl?: number | string; secret?: string } = {},
): Promise<string> {
  const at = new AccessToken(apiKey, opts.secret ?? apiSecret, { identity, name: identity, ttl: opts.ttl ?? '10m' });
  at.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true, ...grant });
  return at.toJwt();
}
