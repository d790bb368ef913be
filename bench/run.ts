// `npm run bench`: one publisher (640×360 VP8 video + opus audio from @livekit/rtc-node) to N subscribers through
// the embedded SFU running in its own process. Reports forwarded streams per core of SFU CPU and memory per
// subscriber, each configuration also as a ratio to the single-subscriber baseline measured in the same run, and
// forwarded RTP packets per second per core (the forwarder's throughput).
// BENCH_SUBSCRIBERS="1,4,8" chooses the configurations, BENCH_WINDOW_S the measuring window (default 8 s).
import './quiet-client-log';
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dispose } from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { type PatternCamera, RustParticipant } from '../e2e/sfu-page/rust-client';
import { pinToCpu } from './cpu-pin';
import { cpuTicks, sfuStats, ticksPerSecond, udpSendFloor } from './sfu-child';

const here = path.dirname(fileURLToPath(import.meta.url));
const counts = (process.env.BENCH_SUBSCRIBERS ?? '1,4,8')
  .split(',')
  .map(Number)
  .filter((n) => n > 0)
  .sort((a, b) => a - b);
const windowS = Number(process.env.BENCH_WINDOW_S ?? 8);
const apiKey = `APIbench${randomBytes(3).toString('hex')}`;
const apiSecret = randomBytes(32).toString('base64url');
// The SFU gets a core of its own and the publisher and subscribers (rtc-node, which decodes every video) the other,
// so packets per core of SFU CPU is the SFU's work, not its share of a core the clients also want.
const sfuCpu = process.env.BENCH_SFU_CPU ?? '0';
const clientCpu = process.env.BENCH_CLIENT_CPU ?? '1';
// The publisher's camera: the light pattern the figures use, or 720p at 30 fps that spends its bitrate
// (bench/README.md, "What the figure measures").
const cameras: Record<string, PatternCamera> = {
  '360p15': { width: 640, height: 360, fps: 15 },
  '720p30': { width: 1280, height: 720, fps: 30, maxBitrate: 1_700_000, noise: true },
};
const camera = cameras[process.env.BENCH_CAMERA ?? '360p15'];
if (!camera) throw new Error(`BENCH_CAMERA is one of ${Object.keys(cameras).join(', ')}`);

interface Sample {
  subscribers: number;
  forwardedStreams: number;
  cpuCores: number;
  streamsPerCore: number;
  rssMiB: number;
  rssPerSubscriberMiB: number;
  heapPerSubscriberMiB: number;
  packetsOutPerS: number;
  mbitOutPerS: number;
  marginalStreamsPerCore: number;
  systemCores: number;
  packetsInPerS: number;
  /** SFU CPU with the publisher alone. */
  idleCores: number;
}

interface Memory {
  rss: number;
  /** JS heap plus buffers after a full GC: steadier than RSS, which V8 rarely gives back. */
  heap: number;
}

function memoryAfterGc(child: ChildProcess): Promise<Memory> {
  return new Promise((resolve) => {
    const on = (msg: { type: string; rss: number; heapUsed: number; external: number }) => {
      if (msg.type !== 'memory') return;
      child.off('message', on);
      resolve({ rss: msg.rss, heap: msg.heapUsed + msg.external });
    };
    child.on('message', on);
    child.send({ type: 'memory' });
  });
}

const ask = async (child: ChildProcess) => ({ stats: await sfuStats(child) });

async function token(identity: string): Promise<string> {
  const at = new AccessToken(apiKey, apiSecret, { identity });
  at.addGrant({ room: 'bench', roomJoin: true, canPublish: true, canSubscribe: true });
  return at.toJwt();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Measured {
  cpuCores: number;
  /** The part of cpuCores spent in the kernel. */
  systemCores: number;
  /** The offered load: RTP packets the publisher sends the SFU. */
  packetsInPerS: number;
  packetsOutPerS: number;
  mbitOutPerS: number;
  memory: Memory;
}

async function measure(child: ChildProcess, pid: number): Promise<Measured> {
  const t0 = cpuTicks(pid);
  const s0 = (await ask(child)).stats;
  const start = Date.now();
  await sleep(windowS * 1000);
  const elapsed = (Date.now() - start) / 1000;
  const t1 = cpuTicks(pid);
  const cpuCores = (t1.user + t1.system - t0.user - t0.system) / ticksPerSecond / elapsed;
  const s1 = (await ask(child)).stats;
  return {
    cpuCores,
    systemCores: (t1.system - t0.system) / ticksPerSecond / elapsed,
    packetsInPerS: (s1.packetsIn - s0.packetsIn) / elapsed,
    packetsOutPerS: (s1.packetsOut - s0.packetsOut) / elapsed,
    mbitOutPerS: ((s1.bytesOut - s0.bytesOut) * 8) / elapsed / 1e6,
    memory: await memoryAfterGc(child),
  };
}

async function main(): Promise<void> {
  const floorUs = await udpSendFloor(sfuCpu, clientCpu);
  const child = fork(path.join(here, 'sfu-process.ts'), [], {
    // BENCH_SFU_NODE_ARGS adds flags for the SFU's process alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(process.env.BENCH_SFU_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: { ...process.env, BENCH_API_KEY: apiKey, BENCH_API_SECRET: apiSecret },
  });
  const pid = child.pid as number;
  const pinned = pinToCpu(pid, sfuCpu) && pinToCpu(process.pid, clientCpu);
  const url = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
  if (pinned) pinToCpu(pid, sfuCpu); // the threads it started meanwhile

  const clients: RustParticipant[] = [];
  try {
    const publisher = new RustParticipant(false);
    clients.push(publisher);
    await publisher.connect(url, await token('publisher'));
    await publisher.publishToneAndPattern(camera);
    await sleep(3000);
    const idle = await measure(child, pid);
    console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
    console.log(
      pinned
        ? `SFU pinned to CPU ${sfuCpu}, publisher and subscribers to CPU ${clientCpu}`
        : 'not pinned (taskset or a second core missing): the SFU shares its core with the clients',
    );
    console.log(
      `publisher only: ${Math.round(idle.packetsInPerS)} RTP packets/s in, SFU ${(idle.cpuCores * 100).toFixed(1)}% of a core, RSS ${(idle.memory.rss / 2 ** 20).toFixed(0)} MiB`,
    );

    const samples: Sample[] = [];
    const subscribers: RustParticipant[] = [];
    for (const n of counts) {
      while (subscribers.length < n) {
        const s = new RustParticipant(false);
        clients.push(s);
        subscribers.push(s);
        await s.connect(url, await token(`sub-${subscribers.length}`));
      }
      // Wait until every subscription is placed and flowing before measuring.
      const deadline = Date.now() + 20_000;
      while ((await ask(child)).stats.subscriptions < n * 2 && Date.now() < deadline) await sleep(200);
      await sleep(3000);
      const m = await measure(child, pid);
      const forwardedStreams = n * 2;
      samples.push({
        subscribers: n,
        forwardedStreams,
        cpuCores: m.cpuCores,
        streamsPerCore: forwardedStreams / Math.max(m.cpuCores, 1e-6),
        rssMiB: m.memory.rss / 2 ** 20,
        rssPerSubscriberMiB: (m.memory.rss - idle.memory.rss) / 2 ** 20 / n,
        heapPerSubscriberMiB: (m.memory.heap - idle.memory.heap) / 2 ** 20 / n,
        packetsOutPerS: m.packetsOutPerS,
        mbitOutPerS: m.mbitOutPerS,
        // Cost of forwarding alone: what the SFU spends beyond receiving the publisher.
        marginalStreamsPerCore: forwardedStreams / Math.max(m.cpuCores - idle.cpuCores, 1e-6),
        systemCores: m.systemCores,
        packetsInPerS: m.packetsInPerS,
        idleCores: idle.cpuCores,
      });
    }

    const base = samples[0] as Sample;
    console.log(`\nbaseline = ${base.subscribers} subscriber(s), measured in this run; window ${windowS} s per row`);
    console.table(
      samples.map((s) => ({
        subscribers: s.subscribers,
        'forwarded streams': s.forwardedStreams,
        'packets out/s': Math.round(s.packetsOutPerS),
        'packets/s per core': Math.round(s.packetsOutPerS / Math.max(s.cpuCores, 1e-6)),
        'Mbit/s out': s.mbitOutPerS.toFixed(2),
        'SFU CPU (% core)': (s.cpuCores * 100).toFixed(1),
        'streams per core': s.streamsPerCore.toFixed(0),
        'vs baseline': `${(s.streamsPerCore / base.streamsPerCore).toFixed(2)}×`,
        'marginal streams/core': s.marginalStreamsPerCore.toFixed(0),
        'RSS MiB': s.rssMiB.toFixed(0),
        'RSS MiB/sub': s.rssPerSubscriberMiB.toFixed(1),
        'heap MiB/sub': s.heapPerSubscriberMiB.toFixed(2),
        'heap vs baseline': `${(s.heapPerSubscriberMiB / base.heapPerSubscriberMiB).toFixed(2)}×`,
      })),
    );
    const top = samples.at(-1) as Sample;
    const verdict = top.streamsPerCore >= 60 ? 'meets' : 'misses';
    console.log(
      `\n${top.forwardedStreams} forwarded streams: ${top.streamsPerCore.toFixed(0)} streams per core (${verdict} the target of 60)`,
    );
    const packetsPerCore = top.packetsOutPerS / Math.max(top.cpuCores, 1e-6);
    console.log(
      `${top.subscribers} subscribers: ${Math.round(packetsPerCore)} forwarded packets/s per core of SFU CPU`,
    );
    // The figure above divides by all of the SFU's CPU, which at this load is mostly work that does not grow with
    // the packets (per-connection timers, RTCP, consent checks, the publisher's side): the split says how much.
    const usPerPacket = (cores: number) => (cores * 1e6) / Math.max(top.packetsOutPerS, 1e-6);
    console.log(
      `offered load: ${Math.round(top.packetsInPerS)} RTP packets/s from the publisher, ${Math.round(top.packetsOutPerS)} out; ` +
        `SFU ${(top.cpuCores * 100).toFixed(1)}% of its core (${((100 * top.systemCores) / Math.max(top.cpuCores, 1e-6)).toFixed(0)}% of it in the kernel); ` +
        `${usPerPacket(top.cpuCores).toFixed(1)} µs of SFU CPU per forwarded packet all in, ${usPerPacket(top.cpuCores - top.idleCores).toFixed(1)} µs beyond the publisher-only cost`,
    );
    const allIn = usPerPacket(top.cpuCores);
    console.log(
      `baseline: a bare UDP send of 1,100 bytes on the SFU's core costs ${floorUs.toFixed(2)} µs of CPU ` +
        `(${Math.round(1e6 / floorUs)} sends/s per core); a forwarded packet costs the SFU ${(allIn / floorUs).toFixed(1)}× that`,
    );
    // Every subscriber must actually receive: audio ~50 pps plus video, per subscriber.
    if (top.packetsOutPerS < top.subscribers * 50) {
      console.error('forwarding looks broken: too few packets out');
      process.exitCode = 1;
    }
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    child.send({ type: 'stop' });
    await new Promise((r) => child.once('exit', r));
    await dispose();
  }
}

// BENCH_MODE=capacity: the capacity ramp; BENCH_MODE=room10: the 10-person call (bench/capacity/run.ts);
// BENCH_MODE=links: Chromium's uplink ramp and back-off and a viewer's layers behind a capped link (bench/links/run.ts).
const mode = process.env.BENCH_MODE;
if (mode === 'capacity' || mode === 'room10') {
  await (await import('./capacity/run')).run(mode);
  // Closed werift peer connections can leave timers behind on a loaded machine: the figures are out, end here.
  process.exit();
} else if (mode === 'links') {
  await (await import('./links/run')).run();
  process.exit();
} else if (mode) throw new Error('BENCH_MODE is capacity, room10 or links (or unset: the one-publisher bench)');
else await main();
