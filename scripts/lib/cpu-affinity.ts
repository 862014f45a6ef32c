// Pins a process (all its threads) to some CPUs with util-linux's `taskset`, so a load generator and
// the service it loads stop taking turns on the same cores. Linux only; elsewhere, or without
// taskset, it does nothing and says so.
import os from 'node:os';
import { spawnSync } from 'node:child_process';

/** Pins `pid` to the CPU list `cpus` (e.g. "0" or "1-3"); false when that is not possible here. */
export function pinToCpus(pid: number, cpus: string): boolean {
  if (os.platform() !== 'linux') return false;
  const result = spawnSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' });
  return result.status === 0;
}
