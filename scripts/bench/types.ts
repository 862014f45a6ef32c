// The shape every benchmark reports, so `npm run bench` prints one table for all families. Each
// figure sits beside a baseline measured in the same run, as a ratio: never an absolute target
// compared across machines.
import type { BenchContext } from './context.ts';

export interface BenchRow {
  /** Endpoint family: `baseline`, `rest`, `ask`, `mcp`, `static`, `feeds`, `hmda`, `search`, `limits`… */
  family: string;
  /** What was measured, e.g. `GET /api/v1/rates`. */
  name: string;
  requestsPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  errors?: number;
  peakRssMb?: number;
  /** Name of the baseline row this one is compared with. */
  baseline?: string;
  /** This row's figure divided by the baseline's (throughput ratio, or time ratio for latency). */
  ratio?: number;
  /** Target in words, e.g. `>= 0.8 of express hello`, and whether it was met. */
  target?: string;
  met?: boolean;
  note?: string;
}

/**
 * A bench module: `scripts/bench/<family>.ts` exports `run` returning its rows. The harness passes
 * the running service and this run's baselines; modules that need a setup of their own (an
 * in-process server, a warehouse) may ignore them.
 */
export type BenchModule = (context: BenchContext) => Promise<BenchRow[]>;
