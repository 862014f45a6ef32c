// The peak memory of every process of a service, from the kernel's own high-water mark (VmHWM in
// /proc/<pid>/status): the most the process has held resident at any moment of its life. Sampling
// VmRSS misses a spike shorter than the sampling period (the lifecycle bench read 486–509 MiB while
// the service's VmHWM said 1,049–1,130 MiB); VmHWM does not. A child's mark is kept from the last
// reading before it exits, so a watch reads often (the service's own mark needs one reading).
import fs from 'node:fs';
import { peakRssMb } from './load.ts';

/** The parent pid of every process in /proc (Linux). */
function parents(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the command name (which may hold spaces and parentheses): state, then ppid.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      byPid.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  return byPid;
}

/** Every live process started by `pid`, at any depth. */
export function descendants(pid: number): number[] {
  const byPid = parents();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of byPid) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The peaks of a service's child processes, by kind: the HMDA sandbox processes, and any other. */
export class ChildPeaks {
  private readonly peaks = new Map<number, { kind: 'sandbox' | 'other'; mb: number }>();
  private readonly servicePid: number;
  constructor(servicePid: number) {
    this.servicePid = servicePid;
  }

  /** Reads the high-water mark of every live child (call it often: a child's mark goes when it exits). */
  sample(): void {
    for (const pid of descendants(this.servicePid)) {
      const mb = peakRssMb(pid);
      if (mb === undefined) continue;
      const known = this.peaks.get(pid);
      const kind = known?.kind ?? (commandLine(pid).includes('sandbox-worker') ? 'sandbox' : 'other');
      this.peaks.set(pid, { kind, mb: Math.max(known?.mb ?? 0, mb) });
    }
  }

  /** The highest mark of one kind and how many such processes were seen. */
  peak(kind: 'sandbox' | 'other'): { mb: number; processes: number } {
    const marks = [...this.peaks.values()].filter((entry) => entry.kind === kind).map((entry) => entry.mb);
    return { mb: Math.max(0, ...marks), processes: marks.length };
  }
}
