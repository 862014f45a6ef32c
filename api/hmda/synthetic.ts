// SYNTHETIC loan records for benchmarks only, in the FFIEC public LAR CSV format. Each state's counts
// by action taken, loan type, purpose, lien, race, ethnicity, sex and age equal the official state
// aggregates times the scale (largest-remainder rounding); every row's LEI starts with SYNTHETIC so
// the real warehouse refuses it. Never loaded into the real warehouse.
import type { Writable } from 'node:stream';
import { LAR_COLUMNS } from './schema.ts';
import type { StateAggregate, StateAggregates } from './validate.ts';
import { SYNTHETIC_LEI_PREFIX } from './warehouse.ts';

export interface SyntheticOptions {
  year: number;
  states: string[];
  aggregates: StateAggregates;
  /** Fraction of each state's real record count to generate (1 = as many records as the state had). */
  scale: number;
  seed?: number;
  /** County FIPS codes with record counts per state (from by_county aggregates); optional. */
  counties?: Record<string, [string, number][]>;
}

/** Deterministic PRNG (mulberry32), so a seed reproduces a file. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits `total` over the categories in proportion to `counts`, exactly (largest remainder). */
export function quotas(counts: Record<string, number>, total: number): [string, number][] {
  const entries = Object.entries(counts).filter(([, count]) => count > 0);
  const sum = entries.reduce((acc, [, count]) => acc + count, 0);
  if (sum === 0) return [];
  const raw = entries.map(([key, count]) => ({ key, exact: (count * total) / sum }));
  const result = raw.map((item) => ({ key: item.key, count: Math.floor(item.exact), rest: item.exact - Math.floor(item.exact) }));
  let missing = total - result.reduce((acc, item) => acc + item.count, 0);
  for (const item of [...result].sort((a, b) => b.rest - a.rest || a.key.localeCompare(b.key))) {
    if (missing <= 0) break;
    item.count += 1;
    missing -= 1;
  }
  return result.map((item) => [item.key, item.count]);
}

/** A shuffled column holding each category exactly its quota of times. */
function shuffledColumn(counts: Record<string, number> | undefined, total: number, next: () => number): string[] {
  const values: string[] = new Array(total);
  let index = 0;
  for (const [key, count] of quotas(counts ?? { NA: 1 }, total)) for (let i = 0; i < count; i += 1) values[index++] = key;
  for (let i = total - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    const swap = values[i] as string;
    values[i] = values[j] as string;
    values[j] = swap;
  }
  return values;
}

export const SYNTHETIC_DIMENSIONS = ['actionTaken', 'loanType', 'loanPurpose', 'lienStatus', 'race', 'ethnicity', 'sex', 'age'] as const;

/** HMDA's codes for the aggregates' category names (shared with the SQL generator). */
export const RACE_CODE: Record<string, string> = {
  White: '5',
  'Black or African American': '3',
  Asian: '2',
  'American Indian or Alaska Native': '1',
  'Native Hawaiian or Other Pacific Islander': '4',
  'Race Not Available': '6',
  Joint: '5',
  '2 or more minority races': '1',
  'Free Form Text Only': '',
};
export const ETHNICITY_CODE: Record<string, string> = {
  'Hispanic or Latino': '1',
  'Not Hispanic or Latino': '2',
  'Ethnicity Not Available': '3',
  Joint: '1',
  'Free Form Text Only': '',
};
export const SEX_CODE: Record<string, string> = { Male: '1', Female: '2', Joint: '1', 'Sex Not Available': '3' };
const PRODUCT: Record<string, string> = { '1': 'Conventional', '2': 'FHA', '3': 'VA', '4': 'FSA/RHS' };
const BASE_RATE: Record<number, number> = { 2018: 4.8, 2019: 4.3, 2020: 3.2, 2021: 3.1, 2022: 5.0, 2023: 6.9, 2024: 6.7 };
export const DTI = ['<20%', '20%-<30%', '30%-<36%', '36', '38', '40', '42', '44', '46', '48', '49', '50%-60%', '>60%'];

export const syntheticLei = (index: number) => `${SYNTHETIC_LEI_PREFIX}${String(index).padStart(20 - SYNTHETIC_LEI_PREFIX.length, '0')}`;
export const SYNTHETIC_LENDERS = 400;

/** The header line of the FFIEC public LAR CSV files. */
export const LAR_HEADER = LAR_COLUMNS.map((column) => column.header).join(',');

const csvText = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function stateRows(
  state: string,
  aggregate: StateAggregate,
  options: SyntheticOptions,
  next: () => number,
  lenderOf: () => number,
): { lines: Generator<string>; count: number } {
  const total = Math.round(Object.values(aggregate.actionTaken).reduce((a, b) => a + b, 0) * options.scale);
  const columns = Object.fromEntries(
    SYNTHETIC_DIMENSIONS.map((dimension) => [dimension, shuffledColumn(aggregate[dimension], total, next)]),
  );
  const counties = options.counties?.[state];
  const county = counties && counties.length > 0 ? shuffledColumn(Object.fromEntries(counties), total, next) : undefined;
  const year = options.year;
  const baseRate = BASE_RATE[year] ?? 5;
  const money = (median: number, spread: number) =>
    Math.max(5000, Math.round((median * Math.exp(spread * (next() + next() + next() - 1.5))) / 10000) * 10000 + 5000);
  function* lines(): Generator<string> {
    for (let row = 0; row < total; row += 1) {
      const action = columns.actionTaken?.[row] ?? '1';
      const loanType = columns.loanType?.[row] ?? '1';
      const lien = columns.lienStatus?.[row] ?? '1';
      const race = columns.race?.[row] ?? 'Race Not Available';
      const ethnicity = columns.ethnicity?.[row] ?? 'Ethnicity Not Available';
      const sex = columns.sex?.[row] ?? 'Sex Not Available';
      const age = columns.age?.[row] ?? '8888';
      const countyCode = county?.[row] ?? 'NA';
      const originated = action === '1';
      const amount = money(lien === '1' ? 280000 : 60000, 1.1);
      const ltv = originated ? (60 + next() * 37).toFixed(2) : 'NA';
      const rate = originated
        ? (baseRate + (loanType === '1' ? 0 : -0.25) + (lien === '2' ? 1.5 : 0) + (next() - 0.5) * 1.5).toFixed(3)
        : 'NA';
      const spread = originated ? ((next() - 0.3) * 1.2).toFixed(3) : 'NA';
      const costs = originated ? (2000 + next() * 8000).toFixed(2) : 'NA';
      const income = next() < 0.08 ? 'NA' : String(Math.round(100 * Math.exp(0.7 * (next() + next() - 1))));
      const denial = action === '3' ? String(1 + Math.floor(next() * 9)) : '10';
      const ageAbove62 = age === '8888' ? 'NA' : age === '>74' || age === '65-74' ? 'Yes' : 'No';
      const values = [
        String(year),
        syntheticLei(lenderOf()),
        '99999',
        state,
        countyCode,
        countyCode === 'NA' ? 'NA' : `${countyCode}000100`,
        'C',
        `${PRODUCT[loanType] ?? 'Conventional'}:${lien === '1' ? 'First' : 'Subordinate'} Lien`,
        'Single Family (1-4 Units):Site-Built',
        ethnicity,
        race,
        sex,
        action,
        '0',
        '2',
        loanType,
        columns.loanPurpose?.[row] ?? '1',
        lien,
        '2',
        '2',
        '2',
        String(amount),
        ltv,
        rate,
        spread,
        originated ? '2' : '3',
        costs,
        'NA',
        costs,
        'NA',
        'NA',
        '360',
        'NA',
        'NA',
        '2',
        '2',
        '2',
        '2',
        String(Math.round(amount / 0.8 / 10000) * 10000 + 5000),
        '1',
        '1',
        '3',
        '5',
        '1',
        'NA',
        income,
        DTI[Math.floor(next() * DTI.length)] ?? '36',
        '1',
        '10',
        ETHNICITY_CODE[ethnicity] ?? '3',
        '',
        '',
        '',
        '',
        '5',
        '',
        '',
        '',
        '',
        '2',
        '4',
        RACE_CODE[race] ?? '6',
        '',
        '',
        '',
        '',
        '8',
        '',
        '',
        '',
        '',
        '2',
        '4',
        SEX_CODE[sex] ?? '3',
        '5',
        '2',
        '4',
        age,
        '9999',
        ageAbove62,
        'NA',
        '1',
        '1',
        '1',
        '',
        '',
        '',
        '',
        denial,
        '',
        '',
        '',
        '4500',
        '24.5',
        '97500',
        '105',
        '1200',
        '1500',
        '35',
      ];
      yield `${values.map(csvText).join(',')}\n`;
    }
  }
  return { lines: lines(), count: total };
}

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}

/** Writes the header and the synthetic rows of every requested state; returns rows per state. */
export async function writeSyntheticLar(out: Writable, options: SyntheticOptions, header = true): Promise<Record<string, number>> {
  const next = random(options.seed ?? 20_240_101);
  // Lender sizes follow a power law, as in the real market.
  const weights = Array.from({ length: SYNTHETIC_LENDERS }, (_, index) => 1 / (index + 1));
  const cumulative: number[] = [];
  weights.reduce((acc, weight, index) => (cumulative[index] = acc + weight), 0);
  const totalWeight = cumulative.at(-1) ?? 1;
  const lenderOf = () => {
    const target = next() * totalWeight;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] ?? 0) < target) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  };
  if (header) await write(out, `${LAR_HEADER}\n`);
  const counts: Record<string, number> = {};
  for (const state of options.states) {
    const aggregate = options.aggregates[state];
    if (!aggregate) throw new Error(`No official aggregate for ${state} ${options.year}: cannot calibrate synthetic rows.`);
    const { lines, count } = stateRows(state, aggregate, options, next, lenderOf);
    let buffer = '';
    for (const line of lines) {
      buffer += line;
      if (buffer.length > 1 << 20) {
        await write(out, buffer);
        buffer = '';
      }
    }
    if (buffer !== '') await write(out, buffer);
    counts[state] = count;
  }
  return counts;
}
