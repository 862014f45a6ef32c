// Reads the NMDB rate rows the sync wrote, grouped by state and market segment: each group holds
// the quarters in order and, per FHFA series, the loan-weighted and dollar-weighted values.
import type { Queryable } from '../platform/db/database.ts';
import { NMDB_RATE_SERIES, type NmdbMarket, type NmdbRateSeries } from './series.ts';

export interface NmdbGroup {
  state: string;
  market: NmdbMarket;
  /** "2013Q1" … ascending. */
  periods: string[];
  /** The last day of each quarter, YYYY-MM-DD. */
  quarterEnds: string[];
  values: Record<NmdbRateSeries, { loan: (number | null)[]; dollar: (number | null)[] }>;
  suppressed: boolean[];
}

export const groupKey = (state: string, market: NmdbMarket) => `${state}|${market}`;

interface Row {
  state: string;
  market: NmdbMarket;
  series: NmdbRateSeries;
  period: string;
  quarter_end: string;
  value_loan: number | null;
  value_dollar: number | null;
  suppressed: boolean;
}

const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * Every group, read a state at a time (in the order state, market, period, series): the whole table
 * at once takes tens of milliseconds just to arrive on this thread, holding every request meanwhile.
 */
export async function readNmdbGroups(db: Queryable): Promise<Map<string, NmdbGroup>> {
  const groups = new Map<string, NmdbGroup>();
  const { rows: states } = await db.query<{ state: string }>('SELECT DISTINCT state FROM nmdb_state_rates ORDER BY state');
  for (const { state } of states) {
    const { rows } = await db.query<Row>(
      `SELECT state, market, series, period, to_char(quarter_end, 'YYYY-MM-DD') AS quarter_end,
              value_loan::float8 AS value_loan, value_dollar::float8 AS value_dollar, suppressed
       FROM nmdb_state_rates WHERE state = $1 ORDER BY market, period, series`,
      [state],
    );
    for (const row of rows) addRow(groups, row);
  }
  return groups;
}

function addRow(groups: Map<string, NmdbGroup>, row: Row): void {
  const state = row.state.trim();
  const key = groupKey(state, row.market);
  let group = groups.get(key);
  if (!group) {
    const values = Object.fromEntries(
      NMDB_RATE_SERIES.map((series) => [series, { loan: [], dollar: [] }]),
    ) as unknown as NmdbGroup['values'];
    group = { state, market: row.market, periods: [], quarterEnds: [], values, suppressed: [] };
    groups.set(key, group);
  }
  if (group.periods.at(-1) !== row.period) {
    group.periods.push(row.period);
    group.quarterEnds.push(row.quarter_end);
    group.suppressed.push(false);
    for (const series of NMDB_RATE_SERIES) {
      group.values[series].loan.push(null);
      group.values[series].dollar.push(null);
    }
  }
  const at = group.periods.length - 1;
  const target = group.values[row.series];
  if (!target) return;
  target.loan[at] = number(row.value_loan);
  target.dollar[at] = number(row.value_dollar);
  if (row.suppressed) group.suppressed[at] = true;
}
