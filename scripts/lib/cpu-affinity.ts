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

/**
 * The services on CPU 0 and this process (the load generator) on the others, so generating load
 * does not slow what it measures. Two services loaded at the same time this way get the same CPU
 * time from the kernel, so their throughputs compare their cost per request while the machine's
 * drift hits both alike. False where that is not possible (one CPU, no taskset); a comparing caller
 * then loads them in turn.
 */
export function pinSideBySide(pids: number[]): boolean {
  const cpus = os.cpus().length;
  if (cpus < 2) return false;
  return pids.every((pid) => pinToCpus(pid, '0')) && pinToCpus(process.pid, `1-${cpus - 1}`);
}

/** Undoes `pinSideBySide`: every CPU for these processes and this one. */
export function unpin(pids: number[]): void {
  const all = `0-${os.cpus().length - 1}`;
  for (const pid of [...pids, process.pid]) pinToCpus(pid, all);
}
