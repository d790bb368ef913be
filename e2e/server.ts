// Starts the real server (serving the built client from dist/) for one spec file, alone or with the embedded
// media server wired as `npm start` wires it.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
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

/**
 * The app server in a process of its own (e2e/server-process.ts) on a port and a data directory that outlive it, so
 * a spec can stop it as a restart does or kill it outright, and start it again on the same port and data.
 */
export interface RestartableServer {
  url: string;
  port: number;
  /** Starts the server (again), its rules running `aheadMs` ahead of real time; resolves once it listens. */
  start(aheadMs?: number): Promise<void>;
  /** 'graceful': SIGTERM, the close a restart makes, waited for; 'kill': SIGKILL. Resolves once the process is gone. */
  stop(how: 'graceful' | 'kill'): Promise<void>;
  /** Kills a running server and removes its data. */
  close(): Promise<void>;
}

const serverProcessEntry = path.resolve('e2e/server-process.ts');

export async function startRestartableServer(options: { clientDir?: string } = {}): Promise<RestartableServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-e2e-restart-'));
  let proc: ChildProcess | null = null;
  const exited = (p: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (p.exitCode !== null || p.signalCode !== null) resolve();
      else p.once('exit', () => resolve());
    });
  const server: RestartableServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    async start(aheadMs = 0) {
      if (proc) throw new Error('the server is running');
      const started = spawn(process.execPath, ['--import', 'tsx', serverProcessEntry], {
        env: {
          ...process.env,
          PORT: String(port),
          DATA_DIR: dataDir,
          CLIENT_DIR: options.clientDir ?? path.resolve('dist'),
          E2E_CLOCK_AHEAD_MS: String(aheadMs),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      proc = started;
      // Through this process's stderr, so Playwright files the server's warnings under the test that was running.
      started.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
      await new Promise<void>((resolve, reject) => {
        let out = '';
        let listening = false;
        started.stdout?.on('data', (d: Buffer) => {
          if (listening) {
            process.stderr.write(d);
            return;
          }
          out += d.toString();
          if (/listening \d+/.test(out)) {
            listening = true;
            resolve();
          }
        });
        started.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
      });
    },
    async stop(how) {
      const running = proc;
      if (!running) return;
      running.kill(how === 'graceful' ? 'SIGTERM' : 'SIGKILL');
      await exited(running);
      proc = null;
    },
    async close() {
      await server.stop('kill');
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
  await server.start();
  return server;
}
