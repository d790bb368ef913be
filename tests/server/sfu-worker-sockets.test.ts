// A media worker is stopped only once its UDP sockets are closed (workers/pool.ts, workers/udp-sockets.ts): a
// datagram that reaches an open one while worker.terminate() tears the thread down aborts the whole process (Node's
// UDPWrap::OnRecv hands it to JavaScript that can no longer run). Clients here are werift peers that offer over the
// signalling websocket; the SFU's answer names the worker's sockets (its host candidates).
import { type ChildProcess, fork } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SessionDescription, SignalRequest, SignalResponse } from '@livekit/protocol';
import { AccessToken } from 'livekit-server-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import * as werift from 'werift';
import WebSocket from 'ws';
import { startSfu } from '../../server/sfu/index';
import { within } from './within';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiKey = 'APIsockets';
const apiSecret = 'sockets-test-secret-0123456789-0123456789';
const cleanups: Array<() => Promise<unknown> | unknown> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A participant that publishes nothing yet: it joins, offers, and reads the ports of the SFU's candidates. */
async function join(url: string, room: string, identity: string): Promise<{ ports: number[]; close(): Promise<void> }> {
  const at = new AccessToken(apiKey, apiSecret, { identity });
  at.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true });
  const ws = new WebSocket(`${url}/rtc?access_token=${await at.toJwt()}`);
  const pc = new werift.RTCPeerConnection({
    iceServers: [],
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
  });
  const close = async () => {
    ws.close();
    await pc.close();
  };
  cleanups.push(close);
  const messages: SignalResponse[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    messages.push(SignalResponse.fromBinary(data as Buffer));
    for (const w of [...waiters]) w();
  });
  const next = (kind: string) =>
    new Promise<SignalResponse>((resolve, reject) => {
      const look = () => {
        const found = messages.find((m) => m.message.case === kind);
        if (!found) return;
        waiters.delete(look);
        resolve(found);
      };
      waiters.add(look);
      ws.once('close', (code) => reject(new Error(`signalling closed (${code}) before ${kind}`)));
      look();
    });
  await next('join');
  pc.addTransceiver('audio', { direction: 'sendonly' });
  pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  if (pc.iceGatheringState !== 'complete') await pc.iceGatheringStateChange.watch((s) => s === 'complete');
  const sdp = pc.localDescription?.sdp ?? '';
  const offer = new SessionDescription({ type: 'offer', sdp, id: 1 });
  ws.send(new SignalRequest({ message: { case: 'offer', value: offer } }).toBinary());
  const answer = await next('answer');
  const answerSdp = answer.message.case === 'answer' ? answer.message.value.sdp : '';
  const ports = [...answerSdp.matchAll(/^a=candidate:\S+ \d+ udp \d+ \S+ (\d+) typ host/gm)].map((m) => Number(m[1]));
  expect(ports.length).toBeGreaterThan(0);
  return { ports: [...new Set(ports)], close };
}

/** UDP ports bound on this machine now (Linux: /proc/net/udp and udp6), read at once. */
function boundUdpPorts(): Set<number> {
  const ports = new Set<number>();
  for (const file of ['/proc/net/udp', '/proc/net/udp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const local = line.trim().split(/\s+/)[1];
      if (local) ports.add(Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16));
    }
  }
  return ports;
}

/** Datagrams to `ports` on loopback from a few sockets, as fast as this thread sends them, until stopped. */
function flood(ports: readonly number[]): { sent: (atLeast: number) => Promise<void>; stop(): void } {
  // A STUN binding request's header and an RTP-looking packet: both reach werift's parsers, as a client's would.
  const stun = Buffer.from('000100002112a442000102030405060708090a0b', 'hex');
  const rtp = Buffer.alloc(200, 0x5a);
  rtp[0] = 0x80;
  const sockets: Socket[] = Array.from({ length: 4 }, () => createSocket('udp4'));
  for (const s of sockets) s.on('error', () => {});
  let on = true;
  let count = 0;
  const waiting: Array<{ atLeast: number; resolve: () => void }> = [];
  const pump = () => {
    if (!on) return;
    for (let i = 0; i < 100; i++)
      for (const port of ports)
        for (const s of sockets) {
          s.send(i % 2 ? rtp : stun, port, '127.0.0.1');
          count++;
        }
    for (const w of waiting.splice(0)) {
      if (count >= w.atLeast) w.resolve();
      else waiting.push(w);
    }
    setImmediate(pump);
  };
  pump();
  const stop = () => {
    if (!on) return;
    on = false;
    for (const s of sockets) s.close();
  };
  cleanups.push(stop);
  return { sent: (atLeast) => new Promise((resolve) => waiting.push({ atLeast, resolve })), stop };
}

describe.skipIf(!existsSync('/proc/net/udp'))('a media worker closes its UDP sockets before it is terminated', () => {
  it('terminate(i) and close() find none of its sockets open', { timeout: 60_000 }, async () => {
    const sfu = await startSfu({
      port: 0,
      host: '127.0.0.1',
      apiKey,
      apiSecret,
      hostCandidates: ['127.0.0.1'],
      workers: 1,
    });
    let closed = false;
    cleanups.push(() => closed || sfu.close());
    const workers = sfu.workers;
    if (!workers) throw new Error('no media workers');
    // Which of the worker's ports are still bound when the pool calls Worker.terminate (Node's own, called through).
    let watched: number[] = [];
    const stillBound: number[][] = [];
    const terminate = Object.getOwnPropertyDescriptor(Worker.prototype, 'terminate');
    const original = Worker.prototype.terminate;
    Worker.prototype.terminate = function (this: Worker) {
      const bound = boundUdpPorts();
      stillBound.push(watched.filter((p) => bound.has(p)));
      return original.call(this);
    };
    cleanups.push(() => terminate && Object.defineProperty(Worker.prototype, 'terminate', terminate));

    await expect.poll(() => workers.isReady(0), { timeout: 20_000 }).toBe(true);
    const first = await join(sfu.url, 'ordering', 'first');
    watched = first.ports;
    expect(watched.every((p) => boundUdpPorts().has(p))).toBe(true);
    await workers.terminate(0);
    expect(stillBound).toEqual([[]]);

    await expect.poll(() => workers.isReady(0), { timeout: 20_000 }).toBe(true);
    const second = await join(sfu.url, 'ordering', 'second');
    watched = second.ports;
    expect(watched.every((p) => boundUdpPorts().has(p))).toBe(true);
    closed = true;
    await sfu.close();
    expect(stillBound).toEqual([[], []]);
  });

  it('a worker that dies of an uncaught exception has closed its sockets when its error reaches the pool', {
    timeout: 120_000,
  }, async () => {
    const sfu = await startSfu({
      port: 0,
      host: '127.0.0.1',
      apiKey,
      apiSecret,
      hostCandidates: ['127.0.0.1'],
      workers: 1,
    });
    cleanups.push(() => sfu.close());
    const workers = sfu.workers;
    if (!workers) throw new Error('no media workers');
    // The worker's thread, as the pool posts the client's join ('open') to it. Only that message: any other thread
    // of the process may post meanwhile (a closing connection of the suite's previous media server tells its dead
    // worker 'closed'), and a remove sent to such a thread neither errors, nor answers, nor exits.
    let worker: Worker | null = null;
    const posts: string[] = [];
    const postMessage = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
      const t = (args[0] as { t?: string } | null)?.t;
      posts.push(`thread ${this.threadId}: ${String(t)}`);
      if (t === 'open' && !worker) {
        worker = this;
        Worker.prototype.postMessage = postMessage;
      }
      return postMessage.apply(this, args);
    };
    cleanups.push(() => {
      Worker.prototype.postMessage = postMessage;
    });

    await expect.poll(() => workers.isReady(0), { timeout: 20_000 }).toBe(true);
    const client = await within(30_000, 'the join answered', join(sfu.url, 'doomed', 'doomed'));
    expect(workers.placement().get('doomed')).toBe(0);
    const thread = worker as Worker | null;
    if (!thread) throw new Error('the join did not reach the worker');
    const boundAtError = new Promise<number[]>((resolve, reject) => {
      thread.once('error', () => {
        const bound = boundUdpPorts();
        resolve(client.ports.filter((p) => bound.has(p)));
      });
      // Should the handler not throw (the room gone from the worker, say), the worker answers: fail saying so rather
      // than wait out the limit.
      thread.on('message', (m: { t?: string; req?: number; value?: unknown }) => {
        if (m.t === 'reply' && m.req === 0)
          reject(new Error(`the worker answered the remove (${String(m.value)}) instead of dying of it`));
      });
      thread.once('exit', (code) => reject(new Error(`the worker exited (${code}) without an error`)));
    });
    // A message its handler throws on (no list of identities), as a bug in a room would: the thread dies of it.
    thread.postMessage({ t: 'remove', req: 0, room: 'doomed', identities: null });
    const bound = await within(30_000, "the worker's error reached the pool", boundAtError).catch(
      async (err: Error) => {
        // Say whether the thread still answers (so the remove never reached it, or its throw was swallowed) or is stuck.
        const alive = await new Promise<string>((resolve) => {
          const timer = setTimeout(() => resolve('no answer to a members request within 5 s'), 5_000);
          thread.on('message', (m: { t?: string; req?: number; value?: unknown }) => {
            if (m.t !== 'reply' || m.req !== 999) return;
            clearTimeout(timer);
            resolve(`it answers: members ${JSON.stringify(m.value)}`);
          });
          thread.postMessage({ t: 'members', req: 999, room: 'doomed' });
        });
        throw new Error(
          `${err.message}; the thread ${thread.threadId}: ${alive}; pool ready: ${workers.isReady(0)}; posts before the join: ${posts.join(', ')}`,
        );
      },
    );
    expect(bound).toEqual([]);
    // The pool's handling of a dead worker is as before: its room leaves the table, and the worker starts again.
    await expect.poll(() => workers.placement().has('doomed')).toBe(false);
    await expect.poll(() => workers.isReady(0), { timeout: 20_000 }).toBe(true);
  });

  it('a flooded worker terminated again and again leaves its process running and the pool usable', {
    timeout: 120_000,
  }, async () => {
    const child: ChildProcess = fork(path.join(here, 'sfu-worker-process.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, SFU_API_KEY: apiKey, SFU_API_SECRET: apiSecret },
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    cleanups.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'));
    const died = ended.then(({ code, signal }) => {
      throw new Error(`the SFU's process ended (code ${code}, signal ${signal}): ${stderr.slice(-2000)}`);
    });
    died.catch(() => {});
    const answers = new Map<number, (value: unknown) => void>();
    child.on('message', (m: { id: number; value?: unknown; error?: string }) => {
      answers.get(m.id)?.(m.error ? Promise.reject(new Error(m.error)) : m.value);
      answers.delete(m.id);
    });
    let nextId = 1;
    const ask = <T>(op: string, extra: object = {}): Promise<T> => {
      const id = nextId++;
      const answered = new Promise<T>((resolve) => answers.set(id, resolve as (value: unknown) => void));
      child.send({ id, op, ...extra });
      return Promise.race([answered, died]);
    };
    const url = await Promise.race([new Promise<string>((resolve) => answers.set(0, resolve as never)), died]);

    for (let round = 0; round < 5; round++) {
      await expect.poll(() => ask<boolean>('ready', { index: 0 }), { timeout: 30_000 }).toBe(true);
      const client = await join(url, `flood-${round}`, `p${round}`);
      const traffic = flood(client.ports);
      await traffic.sent(20_000);
      await ask('terminate', { index: 0 });
      traffic.stop();
      await client.close();
    }

    // The restarted worker takes a room, binds its sockets and answers for it.
    await expect.poll(() => ask<boolean>('ready', { index: 0 }), { timeout: 30_000 }).toBe(true);
    const last = await join(url, 'after', 'last');
    expect(await ask<string[]>('participants', { room: 'after' })).toEqual(['last']);
    // Shutting down under the same flood: the pool's close() stops its worker the same way.
    const traffic = flood(last.ports);
    await traffic.sent(20_000);
    await ask('close');
    traffic.stop();
    expect(await ended).toEqual({ code: 0, signal: null });
  });
});
