// What each cache on the path of GET /api/v1/rates and of the MCP rates tool buys
// (api/platform/cache-meter.ts names them): the same load on two services, one with every cache on
// and one with a cache (or two) off (CACHES_OFF), both pinned to one CPU and loaded at the same
// time (see pinSideBySide), so other work on a shared machine slows both alike. Each comparison runs
// `rounds` times back to back; the ratio is the median of the per-round ratios (off ÷ on). The hit
// ratios are what each service counted under that load, warm-up included (logged at shutdown).
// Both services start afresh for each comparison, each on its own copy of a scratch data folder
// holding the rates datasets only. Not in the default families: `npm run bench caches [--quick]`.
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

interface Setting {
  off: MeteredCache[];
  /** The caches off in the service it is compared with (default none: all on). */
  against?: MeteredCache[];
}

/**
 * Each cache off against all on; then the query memo and the answer cache on the full path (the
 * path of a caller with a key, which the lane never answers): with the lane off in both services.
 * First a control, the same setting in both, to show how far two like services drift apart here.
 */
const SETTINGS: Setting[] = [
  { off: [] },
  { off: ['answer-lane'] },
  { off: ['query-memo'] },
  { off: ['rates-answers'] },
  { off: ['dataset-snapshot'] },
  { off: ['answer-lane', 'query-memo'], against: ['answer-lane'] },
  { off: ['answer-lane', 'rates-answers'], against: ['answer-lane'] },
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

/** The counters of the four caches (the rates copy among the dataset copies; start-up reads others). */
const REPORTED = new Set(['answer-lane', 'query-memo', 'rates-answers', 'dataset-snapshot:rates']);

const countsText = (counts: Record<string, CacheCounter & { hitRatio: number }>) =>
  Object.entries(counts)
    .filter(([name]) => REPORTED.has(name))
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
const named = (caches: MeteredCache[]) => (caches.length === 0 ? 'all caches on' : `${caches.join(' + ')} off`);

/** The row of one comparison: the figures of the service with the setting, its ratio to the reference, and both services' counts. */
function comparisonRow(
  workload: Workload,
  setting: Setting,
  comparison: Comparison,
  counts: { reference: string; tested: string },
): BenchRow {
  const { on, off, ratios, loads } = comparison;
  const reference = named(setting.against ?? []);
  return {
    family: 'caches',
    name:
      `${workload.name}, ${setting.off.length === 0 ? 'control: all on in both' : named(setting.off)} — ${ratios.length} ` +
      `side-by-side rounds of ${ROUND_SECONDS} s (÷ ${reference}: ${ratios.map((value) => value.toFixed(2)).join(', ')}; ` +
      `${reference}: ${medianOf(on, (run) => run.requestsPerSecond).toFixed(0)} req/s, p50 ${medianOf(on, (run) => run.p50Ms).toFixed(2)} ms, ` +
      `p99 ${medianOf(on, (run) => run.p99Ms).toFixed(2)} ms; load average ${loads.map((value) => value.toFixed(1)).join(', ')})`,
    note: `hit ratios, ${reference}: ${counts.reference || 'none counted'}; ${named(setting.off)}: ${counts.tested || 'none counted'}`,
    requestsPerSecond: medianOf(off, (run) => run.requestsPerSecond),
    p50Ms: medianOf(off, (run) => run.p50Ms),
    p99Ms: medianOf(off, (run) => run.p99Ms),
    errors: [...on, ...off].reduce((sum, run) => sum + run.errors + run.non2xx, 0),
    baseline: `${reference} (same rounds)`,
    ratio: median(ratios),
  };
}

/** One setting: both services started afresh (each on its own copy of the data), compared, stopped. */
async function runSetting(workload: Workload, setting: Setting, folders: [string, string], rounds: number): Promise<BenchRow> {
  const [reference, tested] = await Promise.all([
    startBenchService(folders[0], { CACHES_OFF: (setting.against ?? []).join(',') }),
    startBenchService(folders[1], { CACHES_OFF: setting.off.join(',') }),
  ]);
  let comparison: Comparison;
  try {
    comparison = await compare(reference, tested, workload, rounds);
  } finally {
    await Promise.all([reference.stop(), tested.stop()]);
  }
  return comparisonRow(workload, setting, comparison, {
    reference: countsText(loggedCounts(reference)),
    tested: countsText(loggedCounts(tested)),
  });
}

export const run: BenchModule = async ({ quick }) => {
  const rounds = quick ? 2 : 3;
  const folders = syncedFolders();
  const rows: BenchRow[] = [];
  try {
    for (const workload of WORKLOADS) for (const setting of SETTINGS) rows.push(await runSetting(workload, setting, folders, rounds));
  } finally {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  }
  return rows;
};
