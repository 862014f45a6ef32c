// The `statistics` dataset: the precomputed catalogue, rebuilt after its inputs in every default sync
// (it depends on them, so it runs last) and by `npm run precompute`.
import { sha256 } from '../sync/source.ts';
import type { DatasetDefinition } from '../sync/types.ts';
import { DATA_BROWSER_URL, HMDA_AGGREGATES_DATASET, HMDA_LENDERS_DATASET } from '../hmda-aggregates/reads.ts';
import { OPTIMAL_BLUE_DATASET, PMMS_DATASET } from '../rates/sync/national.ts';
import { HUD_INCOME_DATASET } from './income.ts';
import { precomputeStatistics } from './precompute.ts';
import { archiveStatistics } from './archive.ts';
import { CATEGORIES } from './types.ts';

export const STATISTICS_DATASET = 'statistics';

export const STATISTICS_INPUTS = [
  HMDA_AGGREGATES_DATASET,
  HMDA_LENDERS_DATASET,
  HUD_INCOME_DATASET,
  'loan_limits_conforming',
  'loan_limits_fha',
  PMMS_DATASET,
  OPTIMAL_BLUE_DATASET,
];

export const statisticsDataset: DatasetDefinition = {
  name: STATISTICS_DATASET,
  description: 'Precomputed statistics catalogue (seven categories) computed from the HMDA, loan-limit, rate and HUD income datasets',
  dependsOn: STATISTICS_INPUTS,
  archive: archiveStatistics,
  async load(tx, context) {
    context.progress(0, 1);
    const { stats, changed } = await precomputeStatistics(tx);
    context.progress(1, 1);
    const asOf = stats
      .map((stat) => stat.as_of)
      .sort()
      .at(-1) as string;
    return {
      asOf,
      sourceUrl: DATA_BROWSER_URL,
      checksum: sha256(JSON.stringify(stats)),
      rows: stats.length,
      changed,
      details: {
        inputs: STATISTICS_INPUTS,
        per_category: Object.fromEntries(
          CATEGORIES.map((category) => [category, stats.filter((stat) => stat.category === category).length]),
        ),
      },
    };
  },
};
