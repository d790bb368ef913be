// Measures GET /api/health latency while eight clients keep posting ~1 MB pathological JSON bodies (refused with
// 413 before they are read: JSON_BODY_LIMIT_BYTES in server/app.ts). The server runs as `npm start` does, in a
// child process, so the load generator's own work is not counted against it.
// Usage: node --import tsx scripts/health-under-bodies.ts [seconds]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const seconds = Number(process.argv[2] ?? 10);
const WORKERS = 8;
const SIZE = 1024 * 1024;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** Bodies that cost a JSON parser and a validator the most per byte. */
function bodies(): string[] {
  const manyKeys: string[] = [];
  for (let i = 0, len = 2; len < SIZE; i++) {
    const kv = `"k${i}":${i}`;
    manyKeys.push(kv);
    len += kv.length + 1;
  }
  const depth = SIZE / 2;
  return [
    `{${manyKeys.join(',')}}`,
    `${'['.repeat(depth)}${']'.repeat(depth)}`,
    JSON.stringify({ username: '\u0430'.repeat(SIZE / 12), password: 'x' }).replace(/\u0430/g, '\\u0430'),
    JSON.stringify({
      username: 'a',
      password: 'b',
      list: Array.from({ length: SIZE / 8 }, (_, i) => ({ a: i })),
    }).slice(0, SIZE),
  ];
}

/** CPU seconds (user + system) the process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function probe(base: string, until: number): Promise<number[]> {
  const times: number[] = [];
  while (Date.now() < until) {
    const t = performance.now();
    const res = await fetch(`${base}/api/health`);
    await res.arrayBuffer();
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

async function main(): Promise<void> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'health-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CLIENT_DIR: '',
      LOG_LEVEL: 'silent',
      SFU_PORT: '0',
    },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (i > 300) throw new Error('server did not start');
      const ok = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const quiet = await probe(base, Date.now() + 3000);
    const cpuBefore = cpuSeconds(child.pid as number);
    const started = Date.now();
    const payloads = bodies();
    const until = Date.now() + seconds * 1000;
    const statuses = new Map<number, number>();
    let sent = 0;
    const worker = async (w: number) => {
      for (let i = w; Date.now() < until; i++) {
        const body = payloads[i % payloads.length];
        const res = await fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).catch(() => null);
        await res?.arrayBuffer().catch(() => null);
        const s = res?.status ?? 0;
        statuses.set(s, (statuses.get(s) ?? 0) + 1);
        sent++;
      }
    };
    const [loaded] = await Promise.all([probe(base, until), ...Array.from({ length: WORKERS }, (_, w) => worker(w))]);
    const cpu = (cpuSeconds(child.pid as number) - cpuBefore) / ((Date.now() - started) / 1000);
    const row = (name: string, xs: number[]) =>
      `${name.padEnd(28)} n=${String(xs.length).padStart(5)}  p50=${percentile(xs, 50).toFixed(1)} ms  p99=${percentile(xs, 99).toFixed(1)} ms  max=${Math.max(...xs).toFixed(1)} ms`;
    console.log(row('health, idle', quiet));
    console.log(row(`health, ${WORKERS} × 1 MB bodies`, loaded));
    console.log(
      `server CPU under load: ${(cpu * 100).toFixed(0)} % of one core; load average ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(`bodies sent: ${sent}, answers: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
