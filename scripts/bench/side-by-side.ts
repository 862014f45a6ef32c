// One route of the service against a baseline serving the same bytes, measured side by side: both
// processes pinned to CPU 0 and loaded at the same time (the load generator on the other CPUs), so
// the kernel gives each the same CPU time and the ratio of their throughputs is the ratio of their
// costs per request; drift on a shared machine hits both alike. The ratio is the median of the
// rounds'. Where pinning is not possible the two are loaded in turn.
import { pinSideBySide, unpin } from '../lib/cpu-affinity.ts';
import { median, peakRssMb, runLoad, runPair, type LoadResult } from './load.ts';
import type { RunningBaseline } from './baseline.ts';
import type { BenchContext } from './context.ts';
import type { BenchRow } from './types.ts';

export interface SideBySideResult {
  ratio: number;
  ratios: number[];
  sideBySide: boolean;
  /** The service's run of the median round. */
  service: LoadResult;
  errors: number;
}

export async function compareSideBySide(
  context: BenchContext,
  baseline: RunningBaseline,
  servicePath: string,
  baselinePath: string = servicePath,
): Promise<SideBySideResult> {
  const rounds = context.quick ? 3 : 5;
  const seconds = 3;
  const serviceLoad = () => runLoad({ url: `${context.service.url}${servicePath}`, connections: 50, durationSeconds: seconds });
  const baselineLoad = () => runLoad({ url: `${baseline.url}${baselinePath}`, connections: 50, durationSeconds: seconds });
  const pairs: [LoadResult, LoadResult][] = [];
  let sideBySide: boolean;
  try {
    // Warm-up: V8 optimises both for a while.
    await Promise.all([serviceLoad(), baselineLoad()].map((load) => load.then(() => undefined)));
    sideBySide = pinSideBySide([context.service.pid, baseline.pid]);
    for (let round = 0; round < rounds; round += 1) pairs.push(await runPair(sideBySide, baselineLoad, serviceLoad));
  } finally {
    unpin([context.service.pid, baseline.pid]);
  }
  const ratios = pairs.map(([base, service]) => service.requestsPerSecond / base.requestsPerSecond);
  const ratio = median(ratios);
  const middle = pairs[ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!)]!;
  return {
    ratio,
    ratios,
    sideBySide,
    service: middle[1],
    errors: pairs.reduce((sum, [, service]) => sum + service.errors + service.non2xx, 0),
  };
}

/** A row for a side-by-side comparison; `minimum` is the target ratio, when there is one. */
export function sideBySideRow(
  family: string,
  name: string,
  baselineName: string,
  result: SideBySideResult,
  context: BenchContext,
  minimum?: number,
): BenchRow {
  const how = result.sideBySide ? 'both on one CPU at the same time' : 'loaded in turn (no CPU pinning here)';
  return {
    family,
    name: `${name} — median of ${result.ratios.length} rounds of 3 s, ${how} (${result.ratios.map((value) => value.toFixed(2)).join(', ')}); req/s and latency: the service in the median round, sharing its CPU`,
    requestsPerSecond: result.service.requestsPerSecond,
    p50Ms: result.service.p50Ms,
    p99Ms: result.service.p99Ms,
    errors: result.errors,
    peakRssMb: peakRssMb(context.service.pid),
    baseline: baselineName,
    ratio: result.ratio,
    ...(minimum === undefined ? {} : { target: `>= ${minimum.toFixed(2)} of ${baselineName}`, met: result.ratio >= minimum }),
  };
}
