// The SFU's child process as the SFU benchmarks drive it (bench/sfu-process.ts): its CPU time from /proc, its
// counters over IPC, and the same-run baseline of a bare UDP send on its core (bench/udp-send.ts).
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SfuStats } from '../server/sfu/index';
import { canPin } from './cpu-pin';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ticksPerSecond = 100; // USER_HZ on Linux

/** CPU time of `pid` in clock ticks: user (JavaScript, V8's threads, libuv) and system (the UDP system calls). */
export function cpuTicks(pid: number): { user: number; system: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

/**
 * Nanoseconds the process's main thread has run and has waited, runnable, for a core (/proc/<pid>/schedstat): on a
 * shared machine the wait says how much of its core other work took.
 */
export function schedWaitNs(pid: number | 'self'): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
  } catch {
    return 0;
  }
}

/** Sends `{ type }` to the child and resolves with its answer of the same type. */
export function request<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (msg: { type: string }) => {
      if (msg.type !== type) return;
      child.off('message', on);
      resolve(msg as T);
    };
    child.on('message', on);
    child.send({ type });
  });
}

export const sfuStats = async (child: ChildProcess): Promise<SfuStats> =>
  (await request<{ stats: SfuStats }>(child, 'stats')).stats;

/**
 * The same-run baseline: CPU per datagram of a bare dgram `socket.send` on loopback, on the SFU's core
 * (bench/udp-send.ts), so the SFU's cost per forwarded packet reads as a ratio that holds from one machine to another.
 */
export async function udpSendFloor(sfuCpu: string, clientCpu: string): Promise<number> {
  const cpus = canPin ? { BENCH_SENDER_CPU: sfuCpu, BENCH_RECEIVER_CPU: clientCpu } : {};
  const floor = fork(path.join(here, 'udp-send.ts'), ['floor'], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...cpus },
  });
  const [us] = await Promise.all([
    new Promise<number>((resolve) => floor.once('message', (m: { usPerSend: number }) => resolve(m.usPerSend))),
    new Promise((resolve) => floor.once('exit', resolve)),
  ]);
  return us;
}
