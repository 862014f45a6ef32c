// The rates datasets `npm run sync` knows: `pmms`, `optimal_blue` and `rate_checker` (network only;
// skipped with MDS_SOURCE_DIR) by default; `rate_sheet` (--file) only when named.
import type { DatasetDefinition } from '../../sync/types.ts';
import { createNationalDatasets } from './national.ts';
import { createRateCheckerDataset } from './rate-checker.ts';
import { rateSheetDataset } from './rate-sheet.ts';

export const rateDatasets: DatasetDefinition[] = [...createNationalDatasets(), createRateCheckerDataset(), rateSheetDataset];
