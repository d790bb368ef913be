// coturn (Debian's `coturn` package) as a foreground child process for the TURN specs: a temporary config on a
// free loopback port, the TURN REST secret (`use-auth-secret`), relaying to loopback peers (the SFU's candidates).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TurnOptions } from '../../server/sfu/transport/turn';

export const TURNSERVER = '/usr/bin/turnserver';

export interface Coturn {
  port: number;
  secret: string;
  close(): Promise<void>;
}

export function coturnInstalled(): boolean {
  return fs.existsSync(TURNSERVER);
}

/** A port free for both TCP and UDP on loopback (coturn listens on both). */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const u = dgram.createSocket('udp4');
      u.once('error', () => resolve(false));
      u.bind(port, '127.0.0.1', () => u.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
}

/** The SFU's TURN settings for `coturn` reached at a loopback `port` over UDP (its own, or a relay's in front of it). */
export const turnVia = (port: number, coturn: Coturn): TurnOptions => ({
  urls: [`turn:127.0.0.1:${port}?transport=udp`],
  secret: coturn.secret,
});

export async function startCoturn(): Promise<Coturn> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coturn-'));
  const port = await freePort();
  const secret = randomBytes(16).toString('hex');
  const minPort = 40000 + Math.floor(Math.random() * 200) * 100;
  fs.writeFileSync(
    path.join(dir, 'turnserver.conf'),
    [
      `listening-port=${port}`,
      'listening-ip=127.0.0.1',
      'relay-ip=127.0.0.1',
      `min-port=${minPort}`,
      `max-port=${minPort + 99}`,
      'use-auth-secret',
      `static-auth-secret=${secret}`,
      'realm=sfu.test',
      'fingerprint',
      'no-tls',
      'no-dtls',
      'no-cli',
      'allow-loopback-peers',
      'no-multicast-peers',
      `userdb=${path.join(dir, 'turndb')}`,
      `pidfile=${path.join(dir, 'turnserver.pid')}`,
      'log-file=stdout',
      'simple-log',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(TURNSERVER, ['-c', path.join(dir, 'turnserver.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  // Ready once it accepts TCP on its port.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`turnserver exited (${child.exitCode}):\n${log.slice(-2000)}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`turnserver did not start:\n${log.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    secret,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
