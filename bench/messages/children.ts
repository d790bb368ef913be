// The two server children a messaging benchmark drives (bench/messages/run.ts, bench/groups/run.ts): the app
// (app-server.ts) and the floor (floor-server.ts), each started pinned to the server core and spoken to over
// IPC (fixture.ts), and `settle`, which waits until a child has finished what a previous phase left running.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Reply, Request } from './fixture';
import { sleep } from './load';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
export const serverCpu = env.BENCH_SERVER_CPU ?? '0';
export const loadCpu = env.BENCH_LOAD_CPU ?? '1';

export type Kind = 'floor' | 'app';

export interface Child {
  kind: Kind;
  port: number;
  ask<T extends Reply['type']>(req: Omit<Extract<Request, { type: T }>, 'id'>): Promise<Extract<Reply, { type: T }>>;
  cpuMs(): Promise<number>;
  proc: ChildProcess;
}

export const canPin = os.cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0;

/** Pins this process (the load generator) to the load core; false when it cannot. */
export function pinLoadGenerator(): boolean {
  if (canPin) spawnSync('taskset', ['-a', '-pc', loadCpu, String(process.pid)], { stdio: 'ignore' });
  else console.warn('taskset or a second core is missing: server and load generator are not pinned');
  return canPin;
}

export async function startChild(kind: Kind, logFile: string): Promise<Child> {
  const file = path.join(here, kind === 'app' ? 'app-server.ts' : 'floor-server.ts');
  const profile = env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(env.BENCH_CPU_PROF, kind)}`] : [];
  const extra = (env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const node = [process.execPath, '--expose-gc', ...extra, ...profile, '--import', 'tsx', file];
  const [cmd, ...args] = canPin ? ['taskset', '-c', serverCpu, ...node] : node;
  const out = fs.openSync(logFile, 'w');
  const proc = spawn(cmd as string, args, { stdio: ['ignore', out, 'inherit', 'ipc'], env: { ...env } });
  fs.closeSync(out);
  const port = await new Promise<number>((resolve, reject) => {
    proc.once('message', (m: { type: string; port: number }) => resolve(m.port));
    proc.once('exit', (code) => reject(new Error(`${kind} server exited (${code}); log: ${logFile}`)));
  });
  let nextId = 1;
  const waiting = new Map<number, (r: Reply) => void>();
  proc.on('message', (r: Reply) => {
    waiting.get(r.id)?.(r);
    waiting.delete(r.id);
  });
  const ask = (<T extends Reply['type']>(req: Omit<Extract<Request, { type: T }>, 'id'>) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve as (r: Reply) => void);
      proc.send({ ...req, id });
    })) as Child['ask'];
  return { kind, port, proc, ask, cpuMs: async () => (await ask<'cpu'>({ type: 'cpu' })).micros / 1000 };
}

/**
 * Waits until the child's CPU over a 250 ms slice is under 5 % of a core (at most 5 s): what a previous
 * phase left running (a major GC, a checkpoint of its WAL) is not charged to the next window.
 */
export async function settle(child: Child): Promise<void> {
  const until = performance.now() + 5000;
  while (performance.now() < until) {
    const c0 = await child.cpuMs();
    const t0 = performance.now();
    await sleep(250);
    if ((await child.cpuMs()) - c0 < 0.05 * (performance.now() - t0)) return;
  }
}

export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2
    ? (sorted[Math.floor(mid)] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
