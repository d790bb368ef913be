// Pinning a benchmark's processes to cores with taskset, so a server's CPU figure is its own work and not its share
// of a core the load generator also wants.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

/** Whether there are two cores and taskset to pin with. */
export const canPin = os.cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0;

/** Pins every thread of `pid` (and the threads it starts later) to `cpu`; false when it cannot. */
export const pinToCpu = (pid: number | undefined, cpu: string): boolean =>
  canPin &&
  pid !== undefined &&
  spawnSync('taskset', ['-a', '-pc', cpu, String(pid)], { stdio: 'ignore' }).status === 0;
