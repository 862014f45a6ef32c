// What the harness hands to each family module: the running service and the baselines measured in
// this same run, plus how long each measurement lasts.
import type { BenchService } from './service.ts';
import type { LoadResult } from './load-result.ts';

export interface BenchContext {
  quick: boolean;
  seconds: number;
  service: BenchService;
  baselines: { node: LoadResult; express: LoadResult };
}
