// The service's own work against its requests, in the default configuration (embedded database):
// /healthz latency while a full sync from the mirror runs (target p99 < 50 ms, beside the bare Node
// baseline's p99 of this run), the peak memory of a fresh start through that sync (the service
// process's VmHWM, the kernel's high-water mark, so no spike between samples is missed; target ≤ 512
// MiB; its child processes, the HMDA sandbox ones apart, likewise), the RSS idle after it (target ≤
// 384 MiB), and a restart on the synced data until the first answer (target < 3 s) with its peak
// through its start-up work.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../api/config.ts';
import { datasetDefinitions } from '../../api/sync/registry.ts';
import { freePort, spawnServer, type ChildServer } from '../lib/child-server.ts';
import { currentRssMb, median, peakRssMb } from './load.ts';
import { ChildPeaks } from './process-memory.ts';
import { BENCH_SERVICE_ENV, sourceDir, waitForQuiet } from './service.ts';
import type { BenchModule, BenchRow } from './types.ts';

const DEFAULTS = datasetDefinitions.filter((definition) => definition.syncByDefault !== false).map((definition) => definition.name);
const SETTLED = new Set(['loaded', 'failed', 'missing']);
const SYNC_TIMEOUT_MS = 20 * 60_000;
/** Time after the process has gone quiet before its idle RSS is read (see the use). */
const IDLE_SETTLE_MS = 20_000;
/**
 * How long the restarted service runs after its first answer before its peak is read (its start-up
 * work), at least: on a busy machine that work takes longer, so the peak is read once the process
 * has also gone quiet (at most RESTART_QUIET_MAX_MS more).
 */
const RESTART_SETTLE_MS = 15_000;
const RESTART_QUIET_MAX_MS = 180_000;

type Health = { datasets?: Record<string, { state: string }> };

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

async function start(dataDir: string, syncOnStart: boolean): Promise<{ server: ChildServer; url: string; startedAt: number }> {
  const port = await freePort();
  const startedAt = performance.now();
  const server = await spawnServer(path.join(PROJECT_ROOT, 'api', 'main.ts'), {
    env: {
      ...BENCH_SERVICE_ENV,
      SYNC_ON_START: String(syncOnStart),
      MDS_SOURCE_DIR: sourceDir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
    },
    logFile: path.join(dataDir, 'service.log'),
  });
  return { server, url: `http://127.0.0.1:${port}`, startedAt };
}

/** Milliseconds until /healthz first answers 200. */
async function firstAnswerMs(url: string, startedAt: number): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return performance.now() - startedAt;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const run: BenchModule = async (context) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-bench-lifecycle-'));
  const rows: BenchRow[] = [];
  try {
    // 1. A fresh install syncing everything at start, probed one /healthz at a time.
    const first = await start(dataDir, true);
    const pid = first.server.child.pid ?? 0;
    const children = new ChildPeaks(pid);
    const childWatch = setInterval(() => children.sample(), 50);
    await firstAnswerMs(first.url, first.startedAt);
    const latencies: number[] = [];
    const deadline = Date.now() + SYNC_TIMEOUT_MS;
    for (;;) {
      const sent = performance.now();
      const health = (await (await fetch(`${first.url}/healthz`)).json()) as Health;
      latencies.push(performance.now() - sent);
      if (DEFAULTS.every((name) => SETTLED.has(health.datasets?.[name]?.state ?? '')) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The most the process has held at any moment since it started: initdb, migrations, the sync.
    const peakRss = peakRssMb(pid) ?? Number.NaN;
    const p99 = percentile(latencies, 0.99);
    rows.push({
      family: 'lifecycle',
      name: `GET /healthz during a full sync (${latencies.length} probes)`,
      p50Ms: median(latencies),
      p99Ms: p99,
      baseline: 'node http hello',
      ratio: p99 / context.baselines.node.p99Ms,
      target: 'p99 < 50 ms',
      met: p99 < 50,
      note: `max ${Math.round(Math.max(...latencies))} ms`,
    });
    rows.push({
      family: 'lifecycle',
      name: 'peak memory of a fresh start through its sync (service process, VmHWM)',
      peakRssMb: peakRss,
      target: '≤ 512 MiB',
      met: peakRss <= 512,
    });
    await waitForQuiet(pid);
    // Idle is a steady state: the service gives memory back once it has been quiet for a few seconds
    // (api/platform/memory/idle-release.ts), so RSS is read after that has had time to happen.
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    const idle = currentRssMb(pid) ?? Number.NaN;
    rows.push({ family: 'lifecycle', name: 'RSS idle after the sync', peakRssMb: idle, target: '≤ 384 MiB', met: idle <= 384 });
    clearInterval(childWatch);
    children.sample();
    for (const kind of ['sandbox', 'other'] as const) {
      const { mb, processes } = children.peak(kind);
      rows.push({
        family: 'lifecycle',
        name: `peak memory of the service's ${kind === 'sandbox' ? 'HMDA sandbox processes' : 'other child processes'} (VmHWM, each)`,
        peakRssMb: processes > 0 ? mb : undefined,
        note: processes > 0 ? `${processes} process${processes === 1 ? '' : 'es'}` : 'none ran',
      });
    }
    await first.server.stop();

    // 2. A restart on the synced data: from spawning the process to its first answer.
    const second = await start(dataDir, false);
    const restartMs = await firstAnswerMs(second.url, second.startedAt);
    rows.push({
      family: 'lifecycle',
      name: 'restart with loaded data to first /healthz answer',
      p50Ms: restartMs,
      target: '< 3000 ms',
      met: restartMs < 3_000,
    });
    await new Promise((resolve) => setTimeout(resolve, RESTART_SETTLE_MS));
    await waitForQuiet(second.server.child.pid ?? 0, RESTART_QUIET_MAX_MS);
    const restartPeak = peakRssMb(second.server.child.pid ?? 0) ?? Number.NaN;
    rows.push({
      family: 'lifecycle',
      name: `peak memory of the restart through its start-up work (at least ${RESTART_SETTLE_MS / 1000} s after its first answer, then until quiet; VmHWM)`,
      peakRssMb: restartPeak,
      target: '≤ 512 MiB',
      met: restartPeak <= 512,
    });
    await second.server.stop();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
};
