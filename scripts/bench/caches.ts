// What each cache on the path of GET /api/v1/rates and of the MCP rates tool buys
// (api/platform/cache-meter.ts names them): the same load on two services, one with every cache on
// and one with a cache (or two) off (CACHES_OFF), both pinned to one CPU and loaded at the same
// time (see pinSideBySide), so other work on a shared machine slows both alike. Each comparison runs
// `rounds` times back to back; the ratio is the median of the per-round ratios (off ÷ on). The hit
// ratio of each cache is what the service with all on counted under that load (logged at shutdown).
// Both services read a scratch data folder with the rates datasets only, each its own copy.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../../api/config.ts';
import type { CacheCounter, MeteredCache } from '../../api/platform/cache-meter.ts';
import type { BenchModule, BenchRow } from './types.ts';
import { median, runLoad, type LoadOptions, type LoadResult } from './load.ts';
import { sourceDir, startBenchService, type BenchService } from './service.ts';
import { pinSideBySide, unpin } from '../lib/cpu-affinity.ts';

interface Workload {
  name: string;
  load(url: string, seconds: number): LoadOptions;
}

const WORKLOADS: Workload[] = [
  { name: 'GET /api/v1/rates', load: (url, seconds) => ({ url: `${url}/api/v1/rates`, connections: 50, durationSeconds: seconds }) },
  {
    name: 'MCP tools/call get_mortgage_rates',
    load: (url, seconds) => ({
      url: `${url}/api/mcp`,
      method: 'POST',
      connections: 20,
      durationSeconds: seconds,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_mortgage_rates', arguments: {} } }),
    }),
  },
];

/** Each setting compared with all on. The lane never answers a caller with a key: lane-off settings show that caller's path. */
const SETTINGS: MeteredCache[][] = [
  ['answer-lane'],
  ['query-memo'],
  ['rates-answers'],
  ['dataset-snapshot'],
  ['answer-lane', 'query-memo'],
  ['answer-lane', 'rates-answers'],
];

const RATES_DATASETS = ['pmms', 'optimal_blue', 'apor'];
const ROUND_SECONDS = 3;

/** Two scratch folders holding the same synced rates datasets (one per service running at once). */
function syncedFolders(): [string, string] {
  const first = fs.mkdtempSync(path.join(os.tmpdir(), 'mds-bench-caches-'));
  const result = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'sync.ts'), ...RATES_DATASETS], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: first, MDS_SOURCE_DIR: sourceDir(), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`sync of ${RATES_DATASETS.join(', ')} exited with ${result.status}`);
  const second = `${first}-copy`;
  fs.cpSync(first, second, { recursive: true });
  return [first, second];
}

/** The cache counts a stopped service logged on its way out (its last `shut down` line). */
function loggedCounts(service: BenchService): Record<string, CacheCounter & { hitRatio: number }> {
  const lines = fs.readFileSync(path.join(service.dataDir, 'service.log'), 'utf8').trim().split('\n').reverse();
  for (const line of lines) {
    if (!line.includes('"caches"')) continue;
    return (JSON.parse(line) as { caches: Record<string, CacheCounter & { hitRatio: number }> }).caches;
  }
  return {};
}

const countsText = (counts: Record<string, CacheCounter & { hitRatio: number }>) =>
  Object.entries(counts)
    .map(([name, { hits, misses, hitRatio }]) => `${name} ${(100 * hitRatio).toFixed(2)}% of ${hits + misses}`)
    .join(', ');

interface Comparison {
  on: LoadResult[];
  off: LoadResult[];
  ratios: number[];
  loads: number[];
}

/** `rounds` side-by-side rounds of the workload on both services, after a warm-up of both. */
async function compare(on: BenchService, off: BenchService, workload: Workload, rounds: number): Promise<Comparison> {
  const loadOf = (service: BenchService) => () => runLoad(workload.load(service.url, ROUND_SECONDS));
  const result: Comparison = { on: [], off: [], ratios: [], loads: [] };
  const sideBySide = pinSideBySide([on.pid, off.pid]);
  try {
    await Promise.all([loadOf(on)(), loadOf(off)()]); // warm-up: V8 optimises both
    for (let round = 0; round < rounds; round += 1) {
      result.loads.push(os.loadavg()[0]!);
      const [onRun, offRun] = sideBySide ? await Promise.all([loadOf(on)(), loadOf(off)()]) : [await loadOf(on)(), await loadOf(off)()];
      result.on.push(onRun);
      result.off.push(offRun);
      result.ratios.push(offRun.requestsPerSecond / onRun.requestsPerSecond);
    }
  } finally {
    unpin([on.pid, off.pid]);
  }
  return result;
}

const medianOf = (runs: LoadResult[], pick: (run: LoadResult) => number) => median(runs.map(pick));

function comparisonRow(workload: Workload, setting: MeteredCache[], comparison: Comparison, offCounts: string): BenchRow {
  const { on, off, ratios, loads } = comparison;
  return {
    family: 'caches',
    name:
      `${workload.name}, ${setting.join(' + ')} off — ${ratios.length} side-by-side rounds of ${ROUND_SECONDS} s ` +
      `(off ÷ on: ${ratios.map((value) => value.toFixed(2)).join(', ')}; all on: ${medianOf(on, (run) => run.requestsPerSecond).toFixed(0)} req/s, ` +
      `p50 ${medianOf(on, (run) => run.p50Ms).toFixed(2)} ms, p99 ${medianOf(on, (run) => run.p99Ms).toFixed(2)} ms; ` +
      `load average ${loads.map((value) => value.toFixed(1)).join(', ')})${offCounts ? `; counted with it off: ${offCounts}` : ''}`,
    requestsPerSecond: medianOf(off, (run) => run.requestsPerSecond),
    p50Ms: medianOf(off, (run) => run.p50Ms),
    p99Ms: medianOf(off, (run) => run.p99Ms),
    errors: [...on, ...off].reduce((sum, run) => sum + run.errors + run.non2xx, 0),
    baseline: 'all caches on (same rounds)',
    ratio: median(ratios),
  };
}

/** One workload: every setting against a service with all on, then that service's hit ratios. */
async function runWorkload(workload: Workload, folders: [string, string], rounds: number): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const on = await startBenchService(folders[0]);
  try {
    for (const setting of SETTINGS) {
      const off = await startBenchService(folders[1], { CACHES_OFF: setting.join(',') });
      let comparison: Comparison;
      try {
        comparison = await compare(on, off, workload, rounds);
      } finally {
        await off.stop();
      }
      rows.push(comparisonRow(workload, setting, comparison, countsText(loggedCounts(off))));
    }
  } finally {
    await on.stop();
  }
  rows.push({ family: 'caches', name: `${workload.name}, all caches on: hit ratios over every round`, note: countsText(loggedCounts(on)) });
  return rows;
}

export const run: BenchModule = async ({ quick }) => {
  const rounds = quick ? 2 : 4;
  const folders = syncedFolders();
  const rows: BenchRow[] = [];
  try {
    for (const workload of WORKLOADS) rows.push(...(await runWorkload(workload, folders, rounds)));
  } finally {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  }
  return rows;
};
