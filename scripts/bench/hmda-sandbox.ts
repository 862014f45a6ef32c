// The custom SQL sandbox's limits, measured on the benchmark warehouse through the service as it
// runs in production: how long after the deadline a planning-time runaway (constant folding) and a
// long scalar call are stopped, how long a benign query waits while both stand in its way, and how
// much the service process grows while memory bombs are stopped.
import { SqlStoppedError } from '../../api/hmda/sandbox.ts';
import type { HmdaService } from '../../api/hmda/service.ts';
import type { BenchRow } from './types.ts';

const PLANNING_BOMB = "SELECT levenshtein(repeat('a', 300000), repeat('b', 300000)) AS d";
const LONG_SCALAR = "SELECT levenshtein(repeat('a', 300000 + loan_type - loan_type), repeat('b', 300000)) AS d FROM lar LIMIT 1";
const MEMORY_BOMBS = [
  "SELECT length(repeat(repeat('x', 1000000), 3000)) AS n",
  'SELECT length(range(2000000000)) AS n',
  "SELECT length(string_agg(repeat('y', 1000), '')) AS n FROM range(5000000)",
];

/** Milliseconds until the promise settles, and whether it failed. */
async function settle(task: Promise<unknown>, started: number): Promise<{ ms: number; failed: boolean }> {
  const failed = await task.then(
    () => false,
    () => true,
  );
  return { ms: Math.round(performance.now() - started), failed };
}

export async function measureSandboxLimits(service: HmdaService, timeoutMs: number, note: string): Promise<BenchRow[]> {
  // Two runaways take both query slots; a benign query is issued right behind them.
  const started = performance.now();
  const [planning, scalar, benign] = await Promise.all([
    settle(service.sql(PLANNING_BOMB), started),
    settle(service.sql(LONG_SCALAR), started),
    settle(service.sql('SELECT count(*) FROM lar WHERE year = 2024'), started),
  ]);
  const margin = 1000;
  const rows: BenchRow[] = [
    ['planning-time runaway (constant folding)', planning],
    ['long scalar call', scalar],
  ].map(([what, outcome]) => {
    const { ms, failed } = outcome as { ms: number; failed: boolean };
    return {
      family: 'hmda',
      name: `sandbox stops a ${String(what)} (deadline ${timeoutMs} ms)`,
      p50Ms: ms,
      target: `stopped <= deadline + ${margin} ms`,
      met: failed && ms <= timeoutMs + margin,
      note: `${note}; one run`,
    };
  });
  rows.push({
    family: 'hmda',
    name: 'benign custom query issued behind two runaways holding both slots',
    p50Ms: benign.ms,
    target: `answered <= deadline + ${2 * margin} ms`,
    met: !benign.failed && benign.ms <= timeoutMs + 2 * margin,
    note: `${note}; waits for the runaways to be killed and a fresh process to start`,
  });

  const before = process.memoryUsage().rss;
  let stopped = 0;
  for (const bomb of MEMORY_BOMBS) {
    const error = await service.sql(bomb).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (error instanceof SqlStoppedError && error.reason === 'memory') stopped += 1;
  }
  const growthMb = Math.round((process.memoryUsage().rss - before) / 2 ** 20);
  rows.push({
    family: 'hmda',
    name: `service process RSS growth while ${MEMORY_BOMBS.length} memory bombs are stopped`,
    peakRssMb: growthMb,
    target: '< 256 MiB, every bomb stopped for memory',
    met: growthMb < 256 && stopped === MEMORY_BOMBS.length,
    note: `${note}; a 3 GB string and a 16 GB list folded while planning, a 5 GB string aggregated`,
  });
  return rows;
}
