// The rates datasets `npm run sync` knows: `pmms` and `optimal_blue` by default; `rate_checker`
// (network, opt-in) and `rate_sheet` (--file) only when named.
import type { DatasetDefinition } from '../../sync/types.ts';
import { createNationalDatasets } from './national.ts';
import { createRateCheckerDataset } from './rate-checker.ts';
import { rateSheetDataset } from './rate-sheet.ts';

export const rateDatasets: DatasetDefinition[] = [...createNationalDatasets(), createRateCheckerDataset(), rateSheetDataset];
