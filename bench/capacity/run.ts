// BENCH_MODE=capacity npm run bench: the embedded SFU's capacity. The SFU runs alone in a child process pinned to
// one core; lightweight LiveKit clients (lk-client.ts: real signalling, ICE, DTLS and SRTP, synthetic 720p30
// simulcast and Opus-sized audio) run on the other. The offered load (publishers × subscribers) is raised step by
// step until the SFU's core is ≥ 90 % busy or more than 1 % of what subscribers should receive is lost; the last
// step that met both is the figure, with the SFU's CPU per forwarded packet and a bare UDP send measured in the same
// run as its floor.
// BENCH_MODE=room10 npm run bench: a 10-person video call, every participant publishing the simulcast camera and
// audio and receiving the other nine within the downlink it reports (REMB and receiver reports of a link of that
// capacity): the SFU's CPU share and the layers every subscriber gets.
import { type ChildProcess, execSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AccessToken } from 'livekit-server-sdk';
import '../udp-rcvbuf';
import { pinToCpu } from '../cpu-pin';
import { cpuTicks, request, schedWaitNs, sfuStats, ticksPerSecond, udpSendFloor } from '../sfu-child';
import { LAYERS, LkClient, signalMode, startMedia, waitFor } from './lk-client';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiKey = `APIbench${randomBytes(3).toString('hex')}`;
const apiSecret = randomBytes(32).toString('base64url');
const sfuCpu = process.env.BENCH_SFU_CPU ?? '0';
const clientCpu = process.env.BENCH_CLIENT_CPU ?? '1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BUSY_LIMIT = 0.9;
const LOSS_LIMIT = 0.01;

async function token(identity: string): Promise<string> {
  const at = new AccessToken(apiKey, apiSecret, { identity });
  at.addGrant({ room: 'bench', roomJoin: true, canPublish: true, canSubscribe: true });
  return at.toJwt();
}

interface Sfu {
  child: ChildProcess;
  pid: number;
  url: string;
  pinned: boolean;
}

async function startSfuChild(): Promise<Sfu> {
  const child = fork(path.join(here, '..', 'sfu-process.ts'), [], {
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(process.env.BENCH_SFU_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    // The product's default: each subscriber's layers fit to its downlink estimate. The capacity clients report
    // none (unknown downlink: no constraint), the room's report theirs.
    env: {
      ...process.env,
      BENCH_API_KEY: apiKey,
      BENCH_API_SECRET: apiSecret,
      BENCH_BANDWIDTH: process.env.BENCH_BANDWIDTH ?? 'on',
    },
  });
  const pid = child.pid as number;
  const pinned = pinToCpu(pid, sfuCpu) && pinToCpu(process.pid, clientCpu);
  const url = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
  if (pinned) pinToCpu(pid, sfuCpu); // the threads it started meanwhile
  return { child, pid, url, pinned };
}

async function stopSfuChild(sfu: Sfu): Promise<void> {
  sfu.child.send({ type: 'stop' });
  await new Promise((r) => sfu.child.once('exit', r));
}

/** How the figure's clients reached the SFU: the signal flow and the SRTP profile(s) they negotiated. */
function flowOf(clients: readonly LkClient[]): string {
  const profiles = [...new Set(clients.map((c) => c.srtpProfile()))].join(', ');
  return `signal ${signalMode()}, SRTP ${profiles}`;
}

function header(sfu: Sfu): void {
  const commit = (() => {
    try {
      return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    } catch {
      return 'unknown';
    }
  })();
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, commit ${commit}`,
  );
  console.log(
    `load average at start: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `signalling: ${signalMode() === 'v1' ? "livekit-client's single connection, /rtc/v1" : 'legacy /rtc, two connections'} (BENCH_SIGNAL)`,
  );
  console.log(
    sfu.pinned
      ? `SFU pinned to CPU ${sfuCpu}, the clients to CPU ${clientCpu}`
      : 'not pinned (taskset or a second core missing): the SFU shares its core with the clients',
  );
}

/** Totals over every client, so a window is the difference of two snapshots. */
interface Snapshot {
  at: number;
  sfuTicks: number;
  sfuSystemTicks: number;
  clientCpuUs: number;
  sfuWaitNs: number;
  clientWaitNs: number;
  sfuIn: number;
  sfuOut: number;
  received: number;
  receivedTop: number;
  padding: number;
  /** What the subscribers should receive: each one every publisher's top layer and audio. */
  expected: number;
  /** Everything the publishers sent. */
  sent: number;
}

async function snapshot(sfu: Sfu, publishers: LkClient[], subscribers: LkClient[]): Promise<Snapshot> {
  // Everything read here at one instant; the SFU's counters come over IPC after (a cross-check only).
  const at = performance.now();
  const t = cpuTicks(sfu.pid);
  const sfuWaitNs = schedWaitNs(sfu.pid);
  const clientWaitNs = schedWaitNs('self');
  const c = process.cpuUsage();
  const perSubscriber = publishers.reduce((n, p) => n + p.sent.f + p.sent.audio, 0);
  const counts = {
    received: subscribers.reduce((n, s) => n + s.received.packets, 0),
    receivedTop: subscribers.reduce((n, s) => n + s.received.f, 0),
    padding: subscribers.reduce((n, s) => n + s.received.padding, 0),
    expected: perSubscriber * subscribers.length,
    sent: publishers.reduce((n, p) => n + p.sent.q + p.sent.h + p.sent.f + p.sent.audio, 0),
  };
  const stats = await sfuStats(sfu.child);
  return {
    at,
    sfuWaitNs,
    clientWaitNs,
    ...counts,
    sfuTicks: t.user + t.system,
    sfuSystemTicks: t.system,
    clientCpuUs: c.user + c.system,
    sfuIn: stats.packetsIn,
    sfuOut: stats.packetsOut,
  };
}

interface Step {
  publishers: number;
  subscribers: number;
  offeredPerS: number;
  forwardedPerS: number;
  receivedPerS: number;
  busy: number;
  kernel: number;
  clientBusy: number;
  /** Share of the wall time the SFU's main thread (the clients') was runnable but waited for its core. */
  sfuWait: number;
  clientWait: number;
  loss: number;
  /** Of what the publishers sent, the part the SFU did not count in. */
  lossIn: number;
  topShare: number;
  usPerPacket: number;
}

function stepOf(a: Snapshot, b: Snapshot, publishers: number, subscribers: number): Step {
  const s = (b.at - a.at) / 1000;
  const busy = (b.sfuTicks - a.sfuTicks) / ticksPerSecond / s;
  const forwarded = (b.sfuOut - a.sfuOut) / s;
  const received = b.received - a.received;
  const expected = b.expected - a.expected;
  return {
    publishers,
    subscribers,
    offeredPerS: (b.sfuIn - a.sfuIn) / s,
    forwardedPerS: forwarded,
    receivedPerS: received / s,
    busy,
    kernel: (b.sfuSystemTicks - a.sfuSystemTicks) / ticksPerSecond / s,
    clientBusy: (b.clientCpuUs - a.clientCpuUs) / 1e6 / s,
    sfuWait: (b.sfuWaitNs - a.sfuWaitNs) / 1e9 / s,
    clientWait: (b.clientWaitNs - a.clientWaitNs) / 1e9 / s,
    loss: expected > 0 ? Math.max(0, 1 - received / expected) : 0,
    lossIn: b.sent > a.sent ? Math.max(0, 1 - (b.sfuIn - a.sfuIn) / (b.sent - a.sent)) : 0,
    topShare: received > 0 ? (b.receivedTop - a.receivedTop) / received : 0,
    usPerPacket: (busy * 1e6) / Math.max(received / s, 1e-6),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

async function connectAll(clients: LkClient[], url: string, autoSubscribe: boolean): Promise<void> {
  // A few at a time: each does ICE and DTLS handshakes on the clients' core.
  for (let i = 0; i < clients.length; i += 4)
    await Promise.all(clients.slice(i, i + 4).map(async (c) => c.connect(url, await token(c.identity), autoSubscribe)));
}

async function capacity(sfu: Sfu, floorUs: number): Promise<void> {
  const publisherCount = Number(process.env.BENCH_CAP_PUBLISHERS ?? 4);
  const steps = (process.env.BENCH_CAP_SUBSCRIBERS ?? '2,4,8,12,16,20,24,28,32,40,48,56,64')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const windowS = Number(process.env.BENCH_WINDOW_S ?? 5);
  const publishers = Array.from({ length: publisherCount }, (_, i) => new LkClient(`pub-${i + 1}`));
  const subscribers: LkClient[] = [];
  const clients = [...publishers];
  let stopMedia = () => {};
  try {
    await connectAll(publishers, sfu.url, false);
    for (const p of publishers) await p.publish();
    stopMedia = startMedia(publishers);
    await sleep(2000);
    console.log(
      `\n${publisherCount} publishers, each a 720p30 VP8 simulcast camera (q/h/f ${LAYERS.map((l) => `${l.bitrate / 1000}`).join('/')} kbit/s) and 50 audio packets/s; window ${windowS} s per step`,
    );
    const table: Step[] = [];
    let best: Step | null = null;
    let stop = '';
    let saturated = false;
    for (const n of steps) {
      const added: LkClient[] = [];
      while (subscribers.length < n) {
        const s = new LkClient(`sub-${subscribers.length + 1}`);
        subscribers.push(s);
        clients.push(s);
        added.push(s);
      }
      await connectAll(added, sfu.url, true);
      // Every subscription placed and every subscriber receiving every publisher's top layer.
      const want = n * publisherCount * 2;
      const deadline = Date.now() + 30_000;
      while ((await sfuStats(sfu.child)).subscriptions < want && Date.now() < deadline) await sleep(200);
      await waitFor(
        () =>
          subscribers.every(
            (s) => [...s.streams.values()].filter((x) => x.publisherSid && x.f > 0).length >= publisherCount,
          ),
        20_000,
      ).catch(() => console.warn(`  (${n} subscribers: not every one receives every top layer yet)`));
      await sleep(2000);
      const a = await snapshot(sfu, publishers, subscribers);
      await sleep(windowS * 1000);
      const b = await snapshot(sfu, publishers, subscribers);
      const step = stepOf(a, b, publisherCount, n);
      const st = await sfuStats(sfu.child);
      if (st.participants !== publisherCount + n)
        console.warn(`  (the SFU has ${st.participants} participants, not ${publisherCount + n})`);
      table.push(step);
      console.log(
        `  ${n} subscribers: ${Math.round(step.receivedPerS)} forwarded packets/s received, SFU ${pct(step.busy)} of its core (waited ${pct(step.sfuWait)}), loss ${pct(step.loss)}, clients ${pct(step.clientBusy)}`,
      );
      if (step.busy >= BUSY_LIMIT) {
        stop = `the SFU's core reached ${pct(step.busy)} busy`;
        // Saturated and still delivering: that step is the capacity itself.
        if (step.loss <= LOSS_LIMIT) {
          best = step;
          saturated = true;
        }
      } else if (step.loss > LOSS_LIMIT) stop = `loss reached ${pct(step.loss)}`;
      else best = step;
      if (stop) break;
      // The clients' core must not be what limits the figure.
      if (step.clientBusy >= BUSY_LIMIT) {
        stop = `the clients' core reached ${pct(step.clientBusy)} (the load generator, not the SFU, is the limit)`;
        break;
      }
    }
    console.log('');
    console.table(
      table.map((s) => ({
        'publishers × subscribers': `${s.publishers} × ${s.subscribers}`,
        'RTP in/s': Math.round(s.offeredPerS),
        'forwarded/s (SFU)': Math.round(s.forwardedPerS),
        'received/s (clients)': Math.round(s.receivedPerS),
        loss: pct(s.loss),
        'of it before the SFU': pct(s.lossIn),
        'top layer share': pct(s.topShare),
        'SFU busy': pct(s.busy),
        'of it kernel': pct(s.kernel / Math.max(s.busy, 1e-6)),
        'µs/packet': s.usPerPacket.toFixed(1),
        'per core': Math.round(s.receivedPerS / Math.max(s.busy, 1e-6)),
        'SFU waited for its core': pct(s.sfuWait),
        'clients busy': pct(s.clientBusy),
        'clients waited': pct(s.clientWait),
      })),
    );
    console.log(
      stop ? `stopped: ${stop}` : `stopped: no more steps (BENCH_CAP_SUBSCRIBERS); the SFU's core never reached 90 %`,
    );
    console.log(`bare UDP send of 1,100 bytes on the SFU's core (same run): ${floorUs.toFixed(2)} µs of CPU`);
    if (!best) {
      console.log('capacity: no step met both limits');
      process.exitCode = 1;
      return;
    }
    console.log(
      saturated
        ? `the figure: the step that saturated the SFU's core with loss under ${pct(LOSS_LIMIT)} (${best.publishers} × ${best.subscribers})`
        : `the figure: the last step under both limits (${best.publishers} × ${best.subscribers}); the SFU's core was not saturated without loss`,
    );
    console.log(
      `capacity: ${Math.round(best.receivedPerS / best.busy)} forwarded packets/s per core at ${(best.busy * 100).toFixed(1)} % of a core, ${best.usPerPacket.toFixed(1)} µs per packet, ${(best.usPerPacket / floorUs).toFixed(1)}x a bare UDP send; ${flowOf(clients)}`,
    );
  } finally {
    stopMedia();
    for (const c of clients) await c.close().catch(() => {});
  }
}

const LAYER_ORDER = ['q', 'h', 'f'] as const;

async function room10(sfu: Sfu, floorUs: number): Promise<void> {
  const size = Number(process.env.BENCH_ROOM_SIZE ?? 10);
  // Downlinks in Mbit/s, one per participant; the second half of the run reverses them, so each subscriber's
  // allocation has to move (BENCH_ROOM_LINKS).
  const links = (process.env.BENCH_ROOM_LINKS ?? '2.5,3,4,5,6,8,10,12,16,25').split(',').map((x) => Number(x) * 1e6);
  const phaseS = Number(process.env.BENCH_ROOM_PHASE_S ?? 20);
  const settleS = 6;
  const clients = Array.from({ length: size }, (_, i) => new LkClient(`p${i + 1}`));
  let stopMedia = () => {};
  try {
    await connectAll(clients, sfu.url, true);
    for (const c of clients) await c.publish();
    stopMedia = startMedia(clients);
    const want = size * (size - 1) * 2;
    const deadline = Date.now() + 30_000;
    while ((await sfuStats(sfu.child)).subscriptions < want && Date.now() < deadline) await sleep(200);
    const sidToName = new Map(clients.map((c) => [c.sid, c.identity]));
    const linkOf = (i: number, phase: number) => (phase === 0 ? links[i] : links[links.length - 1 - i]) ?? 5e6;
    /** Per subscriber and publisher: seconds on each layer (from packet sizes at the subscriber), and stalls. */
    const seen = clients.map(() => new Map<string, { q: number; h: number; f: number; none: number }>());
    const sfuSeen = clients.map(() => new Set<string>());
    const results: Array<{
      phase: number;
      busy: number;
      kernel: number;
      clientBusy: number;
      sfuWait: number;
      inPerS: number;
      sentPerS: number;
      received: number[];
      paddingPerS: number;
    }> = [];
    const sentAll = () => clients.reduce((n, c) => n + c.sent.q + c.sent.h + c.sent.f + c.sent.audio, 0);
    for (const phase of [0, 1]) {
      for (const [i, c] of clients.entries()) c.reportLink(linkOf(i, phase));
      await sleep(settleS * 1000);
      const before = clients.map((c) => c.received.bytes);
      const pad0 = clients.reduce((n, c) => n + c.received.padding, 0);
      const t0 = cpuTicks(sfu.pid);
      const c0 = process.cpuUsage();
      const w0 = schedWaitNs(sfu.pid);
      const in0 = (await sfuStats(sfu.child)).packetsIn;
      const sent0 = sentAll();
      const start = performance.now();
      // One sample a second: what each stream brought on each layer since the last one.
      let prev = clients.map((c) => new Map([...c.streams].map(([ssrc, s]) => [ssrc, { ...s }])));
      for (let sec = 0; sec < phaseS; sec++) {
        await sleep(1000);
        for (const [i, c] of clients.entries()) {
          const publishersSeen = new Set<string>();
          for (const [ssrc, s] of c.streams) {
            if (!s.publisherSid) continue;
            const p = prev[i]?.get(ssrc);
            const d = { q: s.q - (p?.q ?? 0), h: s.h - (p?.h ?? 0), f: s.f - (p?.f ?? 0) };
            const top = LAYER_ORDER.filter((l) => d[l] > 0).sort((x, y) => d[y] - d[x])[0];
            const name = sidToName.get(s.publisherSid) ?? s.publisherSid;
            const cell = seen[i]?.get(name) ?? { q: 0, h: 0, f: 0, none: 0 };
            if (top) cell[top]++;
            else cell.none++;
            seen[i]?.set(name, cell);
            publishersSeen.add(name);
          }
        }
        const { layers } = await request<{
          layers: Array<{ subscriber: string; kind: string; layer: string | null; paused: boolean }>;
        }>(sfu.child, 'layers');
        for (const l of layers) {
          if (l.kind !== 'video') continue;
          const i = clients.findIndex((c) => c.identity === l.subscriber);
          sfuSeen[i]?.add(l.paused ? 'paused' : (l.layer ?? 'none'));
        }
        prev = clients.map((c) => new Map([...c.streams].map(([ssrc, s]) => [ssrc, { ...s }])));
      }
      const t1 = cpuTicks(sfu.pid);
      const c1 = process.cpuUsage(c0);
      const w1 = schedWaitNs(sfu.pid);
      const in1 = (await sfuStats(sfu.child)).packetsIn;
      const s = (performance.now() - start) / 1000;
      results.push({
        phase,
        busy: (t1.user + t1.system - t0.user - t0.system) / ticksPerSecond / s,
        kernel: (t1.system - t0.system) / ticksPerSecond / s,
        clientBusy: (c1.user + c1.system) / 1e6 / s,
        sfuWait: (w1 - w0) / 1e9 / s,
        inPerS: (in1 - in0) / s,
        sentPerS: (sentAll() - sent0) / s,
        received: clients.map((c, i) => ((c.received.bytes - (before[i] ?? 0)) * 8) / s),
        paddingPerS: (clients.reduce((n, c) => n + c.received.padding, 0) - pad0) / s,
      });
    }
    const stats = await sfuStats(sfu.child);
    console.log(
      `\n${size} participants, each publishing a 720p30 VP8 simulcast camera and audio and receiving the other ${size - 1}; ` +
        `downlinks ${links.map((l) => l / 1e6).join(', ')} Mbit/s (reversed for the second phase); ${phaseS} s per phase after ${settleS} s to settle`,
    );
    const rows = clients.map((c, i) => {
      const cells = [...(seen[i]?.values() ?? [])];
      const total = (l: 'q' | 'h' | 'f' | 'none') => cells.reduce((n, x) => n + x[l], 0);
      const distinct = LAYER_ORDER.filter((l) => total(l) > 0);
      const allSeconds = cells.reduce((n, x) => n + x.q + x.h + x.f + x.none, 0);
      return {
        subscriber: c.identity,
        'downlink Mbit/s (1st → 2nd)': `${linkOf(i, 0) / 1e6} → ${linkOf(i, 1) / 1e6}`,
        'received Mbit/s (1st → 2nd)': `${((results[0]?.received[i] ?? 0) / 1e6).toFixed(2)} → ${((results[1]?.received[i] ?? 0) / 1e6).toFixed(2)}`,
        publishers: cells.length,
        'stream-seconds q/h/f/none': `${total('q')}/${total('h')}/${total('f')}/${total('none')}`,
        'distinct layers': distinct.join(' '),
        'SFU says': [...(sfuSeen[i] ?? [])].sort().join(' '),
        ok: cells.length === size - 1 && distinct.length >= 2 && total('none') <= 0.05 * allSeconds,
      };
    });
    console.table(rows);
    for (const r of results)
      console.log(
        `phase ${r.phase + 1}: SFU ${pct(r.busy)} of its core (${pct(r.kernel / Math.max(r.busy, 1e-6))} of it in the kernel; waited for it ${pct(r.sfuWait)}); ` +
          `RTP in ${Math.round(r.inPerS)}/s of ${Math.round(r.sentPerS)}/s sent; padding ${Math.round(r.paddingPerS)} packets/s; clients ${pct(r.clientBusy)} of their core`,
      );
    const busy = results.reduce((n, r) => n + r.busy, 0) / results.length;
    const ok = rows.every((r) => r.ok);
    console.log(
      `bare UDP send on the SFU's core (same run): ${floorUs.toFixed(2)} µs; SFU forwarded ${stats.packetsOut} packets in all`,
    );
    console.log(
      `room10: SFU ${(busy * 100).toFixed(1)} % of a core; every subscriber gets video from all ${size - 1} at ≥ 2 distinct layers: ${ok ? 'yes' : 'no'}; ${flowOf(clients)}`,
    );
    if (!ok) process.exitCode = 1;
  } finally {
    stopMedia();
    for (const c of clients) await c.close().catch(() => {});
  }
}

export async function run(mode: 'capacity' | 'room10'): Promise<void> {
  const floorUs = await udpSendFloor(sfuCpu, clientCpu);
  const sfu = await startSfuChild();
  header(sfu);
  try {
    if (mode === 'capacity') await capacity(sfu, floorUs);
    else await room10(sfu, floorUs);
  } finally {
    await stopSfuChild(sfu);
  }
}
