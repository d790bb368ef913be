// Starts the real server (serving the built client from dist/) for one spec file, alone or with the embedded
// media server wired as `npm start` wires it.
import net from 'node:net';
import path from 'node:path';
import type { Clock } from '../server/clock';
import { type Sfu, startSfu } from '../server/sfu/index';
import { startTestServer, type TestServer } from '../tests/server/harness';

/**
 * The server's settings, the clock its rules run on when a spec moves time itself, and where its log lines go when a
 * spec reads them (with `logLevel` above 'silent').
 */
export type AppServerOptions = Parameters<typeof startTestServer>[0] & {
  clock?: Clock;
  logStream?: { write(line: string): void };
};

export async function startAppServer({ clock, logStream, ...overrides }: AppServerOptions = {}): Promise<TestServer> {
  return startTestServer(
    { clientDir: path.resolve('dist'), ...overrides },
    { ...(clock ? { clock } : {}), ...(logStream ? { logStream } : {}) },
  );
}

/** A port free on loopback right now. */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface AppWithMediaServer {
  srv: TestServer;
  sfu: Sfu;
  close(): Promise<void>;
}

/**
 * The app and the media server as server/main.ts runs them: the media server on its own port (which the app names
 * in its join answers and its CSP), checking tokens with the key and secret the app's token route signs with.
 */
export async function startAppWithMediaServer(overrides: AppServerOptions = {}): Promise<AppWithMediaServer> {
  const port = await freePort();
  const srv = await startAppServer({
    ...overrides,
    sfu: { port, hostCandidates: ['127.0.0.1'], udpPortRange: null, publicUrl: null },
  });
  const sfu = await startSfu({
    port,
    host: '127.0.0.1',
    apiKey: srv.server.ctx.secrets.livekitApiKey,
    apiSecret: srv.server.ctx.secrets.livekitApiSecret,
    hostCandidates: ['127.0.0.1'],
  });
  return {
    srv,
    sfu,
    close: async () => {
      await sfu.close();
      await srv.close();
    },
  };
}
