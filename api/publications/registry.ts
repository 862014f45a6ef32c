// Every publication served under /data/ and written to DATA_DIR/generated/. Add one line per
// dataset family that changes only with a sync.
import type { Publication } from './types.ts';
import { statisticsPublication } from './produce-statistics.ts';
import { escrowPublication } from './produce-escrow.ts';
import { calendarPublication } from './produce-calendar.ts';
import { loanLimitsPublication } from './produce-loan-limits.ts';

export const publications: readonly Publication[] = [statisticsPublication, escrowPublication, calendarPublication, loanLimitsPublication];
