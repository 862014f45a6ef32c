// The gates an NMDB load must pass before it is published: every state and DC, every market
// segment, every rate series, one contiguous run of quarters shared by all of them, no duplicate,
// values in range and the rate buckets adding up to 100%. A file that fails keeps the previous load.
import { STATE_CODES } from '../geo/states.ts';
import { ValidationError } from '../sync/errors.ts';
import type { NmdbRow } from './parse.ts';
import { NMDB_BUCKETS, NMDB_MARKET_KEYS, NMDB_RATE_SERIES, nextQuarter, quarterEnd } from './series.ts';

/** Ten years of quarters at least: the file has run since 2013Q1. */
export const MIN_QUARTERS = 40;
const RATE_RANGE = [0.5, 20] as const;
/** Five shares rounded to one decimal each: their sum may miss 100 by a few tenths. */
const BUCKET_SUM_TOLERANCE = 1;

export interface NmdbSummary {
  firstPeriod: string;
  lastPeriod: string;
  quarters: number;
  states: number;
  suppressed: number;
}

export function validateNmdb(rows: readonly NmdbRow[], file: string, today: string): NmdbSummary {
  const fail = (problem: string) => {
    throw new ValidationError(`${file}: ${problem}`);
  };
  const periods = new Set<string>();
  const seen = new Map<string, number>();
  const states = new Set<string>();
  let suppressed = 0;
  for (const row of rows) {
    const key = `${row.state}|${row.market}|${row.period}|${row.series}`;
    const earlier = seen.get(key);
    if (earlier !== undefined)
      fail(`lines ${earlier} and ${row.line} both give ${row.series} for ${row.state}, ${row.market}, ${row.period}`);
    seen.set(key, row.line);
    periods.add(row.period);
    states.add(row.state);
    if (row.suppressed) suppressed += 1;
    const [low, high] = row.series === 'AVE_INTRATE' ? RATE_RANGE : [0, 100];
    for (const value of [row.valueLoan, row.valueDollar]) {
      if (value !== null && (value < low || value > high))
        fail(`line ${row.line}: ${row.series} ${value} for ${row.state} ${row.period} is outside ${low}–${high}`);
    }
  }
  const unknown = [...states].filter((state) => !(STATE_CODES as readonly string[]).includes(state));
  if (unknown.length > 0) fail(`unknown state codes ${unknown.join(', ')}`);
  const absent = STATE_CODES.filter((state) => !states.has(state));
  if (absent.length > 0) fail(`no rows for ${absent.join(', ')}; the file must cover the 50 states and DC`);

  const sorted = [...periods].sort();
  const firstPeriod = sorted[0] ?? fail('no rate rows');
  const lastPeriod = sorted.at(-1) as string;
  for (let index = 1; index < sorted.length; index += 1) {
    if (sorted[index] !== nextQuarter(sorted[index - 1] as string)) fail(`the quarters jump from ${sorted[index - 1]} to ${sorted[index]}`);
  }
  if (sorted.length < MIN_QUARTERS)
    fail(`only ${sorted.length} quarters (${firstPeriod}–${lastPeriod}); at least ${MIN_QUARTERS} are expected`);
  if (quarterEnd(lastPeriod) > today) fail(`the latest quarter ${lastPeriod} has not ended yet (${today})`);

  const expected = STATE_CODES.length * NMDB_MARKET_KEYS.length * NMDB_RATE_SERIES.length * sorted.length;
  if (rows.length !== expected) {
    for (const state of STATE_CODES)
      for (const market of NMDB_MARKET_KEYS)
        for (const series of NMDB_RATE_SERIES)
          for (const period of sorted) {
            if (!seen.has(`${state}|${market}|${period}|${series}`))
              fail(
                `no ${series} for ${state}, ${market}, ${period}: every state, market and series must cover ${firstPeriod}–${lastPeriod}`,
              );
          }
  }

  const buckets = new Map<string, { loan: number; dollar: number; complete: boolean; line: number }>();
  for (const row of rows) {
    if (!(NMDB_BUCKETS as readonly string[]).includes(row.series)) continue;
    const key = `${row.state}|${row.market}|${row.period}`;
    const sum = buckets.get(key) ?? { loan: 0, dollar: 0, complete: true, line: row.line };
    if (row.valueLoan === null || row.valueDollar === null) sum.complete = false;
    sum.loan += row.valueLoan ?? 0;
    sum.dollar += row.valueDollar ?? 0;
    buckets.set(key, sum);
  }
  for (const [key, sum] of buckets) {
    if (!sum.complete) continue;
    for (const total of [sum.loan, sum.dollar]) {
      if (Math.abs(total - 100) > BUCKET_SUM_TOLERANCE)
        fail(`the rate buckets of ${key.replaceAll('|', ', ')} add up to ${total.toFixed(1)}%, not 100% (near line ${sum.line})`);
    }
  }
  return { firstPeriod, lastPeriod, quarters: sorted.length, states: states.size, suppressed };
}
