// Sequential latency sampling for what autocannon cannot time: a call through the MCP SDK client,
// the first chunk of an event stream. One caller, back to back, so each figure is the service's
// own latency rather than queueing behind other load.

export interface LatencySummary {
  p50Ms: number;
  p99Ms: number;
  /** Calls per second achieved by the one sequential caller. */
  perSecond: number;
  samples: number;
  errors: number;
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

/**
 * Times `runs` calls of `task` one after another, after one untimed first call (file footers,
 * caches, as a serving process has them), whose own time is given as `firstMs`.
 */
export async function timeRuns(runs: number, task: () => Promise<unknown>): Promise<{ firstMs: number; p50Ms: number; p99Ms: number }> {
  const first = performance.now();
  await task();
  const firstMs = performance.now() - first;
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { firstMs, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) };
}

/**
 * Runs `task` `warmUp` times unmeasured, then `samples` times measured. A task returns false (or
 * throws) for an error; errors are counted, and their times are kept out of the percentiles.
 */
export async function sampleLatency(samples: number, task: () => Promise<boolean | void>, warmUp = 10): Promise<LatencySummary> {
  for (let i = 0; i < warmUp; i += 1) await task().catch(() => false);
  const times: number[] = [];
  let errors = 0;
  const started = performance.now();
  for (let i = 0; i < samples; i += 1) {
    const begin = performance.now();
    const ok = await task().catch(() => false);
    if (ok === false) errors += 1;
    else times.push(performance.now() - begin);
  }
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99), perSecond: samples / elapsed, samples, errors };
}
