// Every record GET /statistics serves, recomputed from the publishers' files in MDS_SOURCE_DIR with
// readers written here (plain CSV and JSON parsing, our own medians and payment formula; nothing of
// the service's parsers, tables or helpers), then compared with what the API serves: the display
// value, the year (taken from where each file states it, or null where it states none), the inputs
// the label and headline show, and the counts the population names. A statistic the service adds
// without a recomputation here fails the test.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatisticsAnswerSchema, type StatRecord } from '../../api/statistics/contract.ts';
import { buildTestApp, listen, type TestApp } from '../support/app.ts';
import type { TestDatabase } from '../support/databases.ts';
import { hasSourceData, sourceFile } from '../support/source-data.ts';
import { syncedTestDatabase } from '../support/synced.ts';

// ---------- readers ----------

/** RFC 4180: quoted fields (with delimiters and doubled quotes), LF or CRLF line ends, a BOM. */
function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    if (row.some((cell) => cell.trim() !== '')) rows.push(row);
    row = [];
  };
  const body = text.replace(/^\uFEFF/, '');
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (quoted && char === '"' && body[index + 1] === '"') {
      field += '"';
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted) {
      field += char;
    } else if (char === delimiter) {
      endField();
    } else if (char === '\n') {
      endRow();
    } else if (char !== '\r') {
      field += char;
    }
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** A delimited file as objects keyed by its header (UTF-8, or Latin-1 where it is not valid UTF-8). */
function readTable(file: string, delimiter = ','): Record<string, string>[] {
  const bytes = fs.readFileSync(file);
  const utf8 = bytes.toString('utf8');
  const [header = [], ...rows] = parseCsv(utf8.includes('\uFFFD') ? bytes.toString('latin1') : utf8, delimiter);
  return rows.map((cells) => Object.fromEntries(header.map((name, index) => [name.trim(), (cells[index] ?? '').trim()])));
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

/** Files below a folder whose name matches, with the year their name states. */
function yearFiles(folder: string, pattern: RegExp): Map<number, string> {
  const found = new Map<number, string>();
  for (const name of fs.readdirSync(sourceFile(folder))) {
    const match = pattern.exec(name);
    if (match?.[1]) found.set(Number(match[1].length === 2 ? `20${match[1]}` : match[1]), sourceFile(folder, name));
  }
  return found;
}

interface Observation {
  date: string;
  value: number;
}

/** A FRED series from every file of the mirror that holds it (any header, CRLF or LF, "." for no value). */
function readSeries(id: string): Observation[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name === `${id}.csv` || entry.name.startsWith(`${id}_`)) files.push(path.join(dir, entry.name));
    }
  };
  walk(sourceFile('rates'));
  const byDate = new Map<string, number>();
  for (const file of files) {
    for (const [date = '', text = ''] of parseCsv(fs.readFileSync(file, 'utf8')).slice(1)) {
      if (text.trim() === '.' || text.trim() === '') continue;
      const value = Number(text);
      const seen = byDate.get(date);
      if (seen !== undefined && Math.abs(seen - value) > 0.0005) throw new Error(`${id} ${date}: the mirror's files disagree`);
      byDate.set(date, value);
    }
  }
  expect(files.length, `files of ${id}`).toBeGreaterThan(0);
  return [...byDate].sort(([a], [b]) => a.localeCompare(b)).map(([date, value]) => ({ date, value }));
}

// ---------- arithmetic and display, written out here ----------

const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const payment = (loan: number, ratePercent: number) => {
  const r = ratePercent / 100 / 12;
  return (loan * r * (1 + r) ** 360) / ((1 + r) ** 360 - 1);
};
const loanFor = (monthly: number, ratePercent: number) => {
  const r = ratePercent / 100 / 12;
  return (monthly * ((1 + r) ** 360 - 1)) / (r * (1 + r) ** 360);
};
const MINUS = '\u2212';
const pct = (value: number, digits = 1) => `${value.toFixed(digits)}%`;
const signed = (value: number, text: string) => `${value >= 0 ? '+' : MINUS}${text}`;
const dollars = (value: number) => `$${Math.round(value).toLocaleString('en-US')}`;
const n = (value: number) => Math.round(value).toLocaleString('en-US');
const millions = (value: number) => (value >= 1_000_000 ? `${(value / 1_000_000).toFixed(1)} million` : n(value));
const longDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const daysBefore = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const yearOf = (date: string) => Number(date.slice(0, 4));

const STATE_NAMES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};
/** Where FHFA's conforming ceiling does not apply (statutory higher limits). */
const HIGH_LIMIT_AREAS = new Set(['AK', 'HI', 'GU', 'VI']);

// ---------- what each record must be ----------

interface Expected {
  value: string;
  /** The year as the source states it; null where it states none. */
  year: number;
  /** Inputs the label or headline must show, exactly as computed with. */
  shows?: string[];
  /** Counts and filters the population must name. */
  population?: string[];
  as_of?: string;
}

type Dimensions = Record<string, Record<string, number>>;

function hmdaExpectations(expected: Map<string, Expected>): void {
  const files = yearFiles(path.join('hmda', 'aggregates'), /^by_state_(\d{4})\.json$/);
  const years = [...files.keys()].sort();
  const year = years.at(-1) as number;
  const load = (y: number) => readJson<Record<string, Dimensions>>(files.get(y) as string);
  const nationOf = (states: Record<string, Dimensions>) => (dimension: string, code: string) =>
    sum(Object.values(states).map((state) => state[dimension]?.[code] ?? 0));
  const totalOf = (states: Record<string, Dimensions>) =>
    sum(Object.values(states).flatMap((state) => Object.values(state.actionTaken ?? {})));
  const states = load(year);
  const nation = nationOf(states);
  const records = totalOf(states);
  // The national total is the Data Browser's record count (every key, territories and NA included).
  expect(records).toBe(
    sum(Object.values(readJson<Record<string, number>>(sourceFile('hmda', 'aggregates', 'record_counts', `stateCounts${year}.json`)))),
  );
  const put = (id: string, value: string, extra: Omit<Expected, 'value' | 'year'> = {}) => expected.set(id, { value, year, ...extra });
  const all = { population: [n(records)] };

  put(`hmda_records_${year}`, millions(records), all);
  const originated = nation('actionTaken', '1');
  put(`originations_${year}`, millions(originated), all);
  const prior = load(year - 1);
  const before = nationOf(prior)('actionTaken', '1');
  const change = ((originated - before) / before) * 100;
  put(`originations_change_${year}`, signed(change, pct(Math.abs(change))), { population: [n(before), n(originated)] });
  const decided = nation('actionTaken', '1') + nation('actionTaken', '2') + nation('actionTaken', '3');
  put(`approval_rate_${year}`, pct(((nation('actionTaken', '1') + nation('actionTaken', '2')) / decided) * 100), {
    population: [n(decided)],
  });
  put(`denial_rate_${year}`, pct((nation('actionTaken', '3') / decided) * 100), { population: [n(decided)] });
  const stateTotal = (code: string) => sum(Object.values(states[code]?.actionTaken ?? {}));
  const ranked = (score: (code: string) => number) =>
    Object.keys(STATE_NAMES).sort((a, b) => score(b) - score(a) || a.localeCompare(b))[0] as string;
  const largest = ranked(stateTotal);
  put(`largest_state_market_${year}`, STATE_NAMES[largest] as string, {
    shows: [millions(stateTotal(largest)), pct((stateTotal(largest) / records) * 100)],
    population: [n(records)],
  });
  put(`home_purchase_share_${year}`, pct((nation('loanPurpose', '1') / records) * 100), all);
  put(`refinance_share_${year}`, pct(((nation('loanPurpose', '31') + nation('loanPurpose', '32')) / records) * 100), all);
  const totals = new Map(years.map((y) => [y, totalOf(load(y))]));
  const peak = [...totals].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] as [number, number];
  expected.set('hmda_records_peak_year', { value: String(peak[0]), year: peak[0], shows: [millions(peak[1])] });

  const loanTypeShare = (lookup: (dimension: string, code: string) => number, total: number, code: string) =>
    (lookup('loanType', code) / total) * 100;
  for (const [code, key] of [
    ['1', 'conventional'],
    ['2', 'fha'],
    ['3', 'va'],
    ['4', 'usda'],
  ] as const)
    put(`${key}_share_${year}`, pct(loanTypeShare(nation, records, code)), all);
  const fhaChange = loanTypeShare(nation, records, '2') - loanTypeShare(nationOf(prior), totalOf(prior), '2');
  put(`fha_share_change_${year}`, signed(fhaChange, `${Math.abs(fhaChange).toFixed(1)} pts`), {
    population: [n(totalOf(prior)), n(records)],
  });
  for (const [code, key] of [
    ['2', 'fha'],
    ['3', 'va'],
  ] as const) {
    const stateShare = (state: string) => ((states[state]?.loanType?.[code] ?? 0) / stateTotal(state)) * 100;
    const top = ranked(stateShare);
    put(`highest_${key}_share_state_${year}`, STATE_NAMES[top] as string, {
      shows: [pct(stateShare(top))],
      population: [n(stateTotal(top))],
    });
  }

  const profile: [string, string, string[], string][] = [
    ['joint_applicants_share', 'sex', ['Joint'], 'Sex Not Available'],
    ['female_applicants_share', 'sex', ['Female'], 'Sex Not Available'],
    ['applicants_under_35_share', 'age', ['<25', '25-34'], '8888'],
    ['applicants_65_plus_share', 'age', ['65-74', '>74'], '8888'],
    ['hispanic_applicants_share', 'ethnicity', ['Hispanic or Latino'], 'Ethnicity Not Available'],
    ['black_applicants_share', 'race', ['Black or African American'], 'Race Not Available'],
    ['asian_applicants_share', 'race', ['Asian'], 'Race Not Available'],
  ];
  for (const [key, dimension, codes, notReported] of profile) {
    const reported = records - nation(dimension, notReported);
    put(`${key}_${year}`, pct((sum(codes.map((code) => nation(dimension, code))) / reported) * 100), {
      population: [n(reported), n(records - reported), notReported],
    });
  }
}

function lenderExpectations(expected: Map<string, Expected>): void {
  const rows = readTable(sourceFile('hmda', 'institutions', '2020_ts_csv.csv'));
  const years = new Set(rows.map((row) => Number(row.activity_year)));
  expect([...years]).toHaveLength(1); // the sheet states one activity year
  const year = [...years][0] as number;
  const lar = rows.map((row) => Number(row.lar_count));
  const records = sum(lar);
  const ranked = [...rows].sort((a, b) => Number(b.lar_count) - Number(a.lar_count) || (a.lei ?? '').localeCompare(b.lei ?? ''));
  const top = ranked[0] as Record<string, string>;
  const filers = { population: [n(rows.length)] };
  const put = (id: string, value: string, extra: Omit<Expected, 'value' | 'year'>) => expected.set(id, { value, year, ...extra });
  put(`hmda_filers_${year}`, n(rows.length), { shows: [millions(records)], ...filers });
  put(`top_lender_share_${year}`, pct((Number(top.lar_count) / records) * 100), {
    shows: [top.respondent_name as string, millions(Number(top.lar_count))],
    population: [n(records)],
  });
  put(`top10_lender_share_${year}`, pct((sum(ranked.slice(0, 10).map((row) => Number(row.lar_count))) / records) * 100), {
    population: [n(records)],
  });
  put(`median_filer_records_${year}`, n(median(lar)), filers);
  const small = lar.filter((count) => count < 100).length;
  put(`filers_under_100_records_${year}`, pct((small / rows.length) * 100), { shows: [`(${n(small)})`], ...filers });
  const creditUnions = rows.filter((row) => row.agency_code === '5').length;
  put(`credit_union_filer_share_${year}`, pct((creditUnions / rows.length) * 100), { shows: [n(creditUnions)], ...filers });
  put(
    `hud_agency_record_share_${year}`,
    pct((sum(rows.filter((row) => row.agency_code === '7').map((row) => Number(row.lar_count))) / records) * 100),
    { population: [n(records)] },
  );
  const byState = new Map<string, number>();
  for (const row of rows) if (row.respondent_state) byState.set(row.respondent_state, (byState.get(row.respondent_state) ?? 0) + 1);
  const [state, count] = [...byState].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] as [string, number];
  put(`most_filers_state_${year}`, STATE_NAMES[state] as string, { shows: [`: ${n(count)}`], population: [n(sum(byState.values()))] });
}

interface LimitFile {
  counties: { state: string; limit: number }[];
}

/**
 * FHFA's county files by year. 2018–2025 are CFPB's pipe-delimited copies; 2026 is published only
 * as an xlsx, which has no plain-text reader: it is read through the mirror's CSV conversion of the
 * same workbook (SOURCES.md: "Values are unchanged"), so 2026 checks the workbook's values, not our
 * xlsx parsing.
 */
function conformingFiles(): Map<number, LimitFile> {
  const result = new Map<number, LimitFile>();
  const folder = path.join('loan_limits', 'fhfa_conforming');
  for (const [year, file] of yearFiles(folder, /^FullCountyLoanLimitList(\d{4})\.txt$/)) {
    result.set(year, {
      counties: readTable(file, '|').map((row) => ({ state: row.State as string, limit: Number(row['One-UnitLimit']) })),
    });
  }
  for (const [year, file] of yearFiles(folder, /^FullCountyLoanLimitList(\d{4})_converted_from_xlsx\.csv$/)) {
    result.set(year, { counties: readTable(file).map((row) => ({ state: row.State as string, limit: Number(row['One-Unit Limit']) })) });
  }
  return result;
}

/** HUD's CHUMS forward limits: county rows are program 203B with a state; national rows have none. */
function fhaFiles(): Map<number, LimitFile> {
  const result = new Map<number, LimitFile>();
  for (const [year, file] of yearFiles(path.join('loan_limits', 'hud_fha'), /^forward_limits_(\d{4})\.csv$/)) {
    const counties = readTable(file).filter((row) => row.program === '203B' && row.state !== '');
    result.set(year, { counties: counties.map((row) => ({ state: row.state as string, limit: Number(row['limit-1-unit']) })) });
  }
  return result;
}

const lowest = (file: LimitFile) => Math.min(...file.counties.map((county) => county.limit));

function limitExpectations(expected: Map<string, Expected>, conforming: Map<number, LimitFile>, fha: Map<number, LimitFile>): void {
  const year = Math.max(...conforming.keys());
  const file = conforming.get(year) as LimitFile;
  const baseline = lowest(file);
  const contiguous = file.counties.filter((county) => !HIGH_LIMIT_AREAS.has(county.state));
  const ceiling = Math.max(...contiguous.map((county) => county.limit));
  expected.set(`conforming_baseline_limit_${year}`, { value: dollars(baseline), year, population: [n(file.counties.length)] });
  expected.set(`conforming_ceiling_limit_${year}`, { value: dollars(ceiling), year, population: [n(contiguous.length)] });
  const above = file.counties.filter((county) => county.limit > baseline).length;
  expected.set(`high_cost_counties_${year}`, {
    value: n(above),
    year,
    shows: [n(file.counties.length), dollars(baseline)],
    population: [n(file.counties.length)],
  });
  for (const down of [20, 10, 5]) {
    expected.set(`jumbo_threshold_${down}pct_down_${year}`, {
      value: dollars(baseline / ((100 - down) / 100)),
      year,
      shows: [dollars(baseline)],
    });
  }
  expected.set(`jumbo_threshold_20pct_down_high_cost_${year}`, { value: dollars(ceiling / 0.8), year, shows: [dollars(ceiling)] });
  const fhaYear = Math.max(...fha.keys());
  const floor = lowest(fha.get(fhaYear) as LimitFile);
  expected.set(`fha_floor_limit_${fhaYear}`, {
    value: dollars(floor),
    year: fhaYear,
    population: [n((fha.get(fhaYear) as LimitFile).counties.length)],
  });
  const price = floor / 0.965;
  expected.set(`fha_min_down_payment_at_floor_${fhaYear}`, {
    value: dollars(price * 0.035),
    year: fhaYear,
    shows: [dollars(price), dollars(floor)],
  });
  const fhaCeiling = Math.max(
    ...(fha.get(fhaYear) as LimitFile).counties.filter((county) => !HIGH_LIMIT_AREAS.has(county.state)).map((county) => county.limit),
  );
  const ceilingPrice = fhaCeiling / 0.965;
  expected.set(`fha_min_down_payment_at_ceiling_${fhaYear}`, {
    value: dollars(ceilingPrice * 0.035),
    year: fhaYear,
    shows: [dollars(ceilingPrice), dollars(fhaCeiling)],
  });
}

function rateExpectations(expected: Map<string, Expected>, thirty: Observation[]): void {
  const latest = thirty.at(-1) as Observation;
  const put = (id: string, value: string, year: number, extra: Omit<Expected, 'value' | 'year'>) =>
    expected.set(id, { value, year, ...extra });
  put('pmms_30yr_latest', pct(latest.value, 2), yearOf(latest.date), { shows: [longDate(latest.date)], as_of: latest.date });
  const ago = thirty.filter((observation) => observation.date <= daysBefore(latest.date, 364)).at(-1) as Observation;
  const change = latest.value - ago.value;
  put('pmms_30yr_change_52wk', signed(change, `${Math.abs(change).toFixed(2)} pts`), yearOf(latest.date), {
    shows: [pct(ago.value, 2), longDate(ago.date)],
    as_of: latest.date,
  });
  const lastYear = yearOf(latest.date) - 1;
  const weeks = thirty.filter((observation) => yearOf(observation.date) === lastYear);
  put(`pmms_30yr_average_${lastYear}`, pct(sum(weeks.map((week) => week.value)) / weeks.length, 2), lastYear, {
    population: [`${weeks.length} weekly`],
  });
  const low = thirty.reduce((best, item) => (item.value < best.value ? item : best));
  const high = thirty.reduce((best, item) => (item.value > best.value ? item : best));
  const history = [longDate(thirty[0]?.date as string), `${n(thirty.length)} weeks`];
  put('pmms_30yr_record_low', pct(low.value, 2), yearOf(low.date), { shows: [longDate(low.date)], population: history });
  put('pmms_30yr_record_high', pct(high.value, 2), yearOf(high.date), { shows: [longDate(high.date)], population: history });
  const fifteen = readSeries('MORTGAGE15US');
  const latest15 = fifteen.at(-1) as Observation;
  put('pmms_15yr_latest', pct(latest15.value, 2), yearOf(latest15.date), { shows: [longDate(latest15.date)], as_of: latest15.date });
  const same = thirty.find((observation) => observation.date === latest15.date) as Observation;
  put('pmms_30_15_spread_latest', `${(same.value - latest15.value).toFixed(2)} pts`, yearOf(latest15.date), {
    population: [pct(same.value, 2), pct(latest15.value, 2)],
    as_of: latest15.date,
  });

  const conforming = readSeries('OBMMIC30YF');
  const lastConforming = conforming.at(-1) as Observation;
  const date = lastConforming.date;
  put('obmmi_conforming_latest', pct(lastConforming.value, 3), yearOf(date), { shows: [longDate(date)], as_of: date });
  for (const [id, key] of [
    ['OBMMIFHA30YF', 'fha'],
    ['OBMMIVA30YF', 'va'],
    ['OBMMIJUMBO30YF', 'jumbo'],
  ] as const) {
    const other = readSeries(id).find((observation) => observation.date === date) as Observation;
    const spread = other.value - lastConforming.value;
    put(`obmmi_${key}_spread_latest`, signed(spread, `${Math.abs(spread).toFixed(3)} pts`), yearOf(date), {
      shows: [pct(other.value, 3)],
      as_of: date,
    });
  }
}

function affordabilityExpectations(
  expected: Map<string, Expected>,
  thirty: Observation[],
  conforming: Map<number, LimitFile>,
  fha: Map<number, LimitFile>,
): void {
  const latest = thirty.at(-1) as Observation;
  const year = yearOf(latest.date);
  const limitYear = Math.max(...[...conforming.keys()].filter((candidate) => candidate <= year));
  const limit = lowest(conforming.get(limitYear) as LimitFile);
  const rate = pct(latest.value, 2);
  const put = (id: string, value: string, y: number, extra: Omit<Expected, 'value' | 'year'>) =>
    expected.set(id, { value, year: y, ...extra });
  put('pi_per_100k_latest', dollars(payment(100_000, latest.value)), year, { shows: [rate], as_of: latest.date });
  const monthly = payment(limit, latest.value);
  put('pi_payment_baseline_latest', dollars(monthly), year, { shows: [dollars(limit), rate], as_of: latest.date });
  put('income_needed_baseline_latest', dollars((monthly * 12) / 0.28), year, { shows: [dollars(limit), rate], as_of: latest.date });
  const ago = thirty.filter((observation) => observation.date <= daysBefore(latest.date, 364)).at(-1) as Observation;
  const change = monthly - payment(limit, ago.value);
  put('pi_payment_baseline_change_52wk', signed(change, dollars(Math.abs(change))), year, {
    shows: [dollars(limit), rate, pct(ago.value, 2)],
    as_of: latest.date,
  });

  const incomeFiles = yearFiles(path.join('income_limits', 'hud_section8'), /^Section8-FY(\d{2})\.csv$/);
  const fy = Math.max(...incomeFiles.keys());
  const areas = readTable(incomeFiles.get(fy) as string).map((row) => Number(row[`median${fy}`]));
  expect(areas.every((value) => Number.isInteger(value) && value > 0)).toBe(true);
  const typical = median(areas);
  const weeks = thirty.filter((observation) => yearOf(observation.date) === fy);
  // The rate is shown with two decimals, so the figures must be computed with exactly that rate.
  const shown = Number((sum(weeks.map((week) => week.value)) / weeks.length).toFixed(2));
  const fyRate = pct(shown, 2);
  const hud = { population: [n(areas.length)] };
  put(`median_family_income_${fy}`, dollars(typical), fy, hud);
  put(`max_loan_median_income_${fy}`, dollars(loanFor(((typical / 12) * 28) / 100, shown)), fy, {
    shows: [fyRate, dollars(typical)],
    population: [n(areas.length), `${weeks.length} weekly`],
  });
  const fyBaseline = lowest(conforming.get(fy) as LimitFile);
  put(`pi_to_income_baseline_${fy}`, pct(((payment(fyBaseline, shown) * 12) / typical) * 100), fy, {
    shows: [fyRate, dollars(fyBaseline), dollars(typical)],
    ...hud,
  });
  const fhaFloor = lowest(fha.get(fy) as LimitFile);
  const fhaPayment = payment(fhaFloor, shown);
  const over = areas.filter((income) => fhaPayment > (income * 0.28) / 12).length;
  // A reader comparing with the whole-dollar payment the headline shows gets the same share.
  expect(areas.filter((income) => Math.round(fhaPayment) > (income * 0.28) / 12).length).toBe(over);
  put(`areas_fha_floor_over_28pct_${fy}`, pct((over / areas.length) * 100), fy, {
    shows: [fyRate, dollars(fhaFloor), dollars(fhaPayment)],
    ...hud,
  });
}

// ---------- the comparison ----------

describe.skipIf(!hasSourceData)('every /statistics record recomputed from the official files', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let served: Map<string, StatRecord>;
  const expected = new Map<string, Expected>();

  beforeAll(async () => {
    database = await syncedTestDatabase('postgres', ['statistics']);
    testApp = await buildTestApp(database.db);
    server = await listen(testApp.app);
    const response = await fetch(`${server.url}/api/v1/statistics?all=true`);
    expect(response.status).toBe(200);
    served = new Map((StatisticsAnswerSchema.parse(await response.json()).stats ?? []).map((stat) => [stat.id, stat]));
    const thirty = readSeries('MORTGAGE30US');
    const conforming = conformingFiles();
    const fha = fhaFiles();
    hmdaExpectations(expected);
    lenderExpectations(expected);
    limitExpectations(expected, conforming, fha);
    rateExpectations(expected, thirty);
    affordabilityExpectations(expected, thirty, conforming, fha);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await testApp?.close();
    await database?.drop();
  });

  it('recomputes exactly the statistics served, no more and no fewer', () => {
    expect([...served.keys()].sort()).toEqual([...expected.keys()].sort());
  });

  it('serves each value as recomputed from the files', () => {
    for (const [id, want] of expected) expect(served.get(id)?.value, id).toBe(want.value);
  });

  it('claims only a year its source states, and names it', () => {
    for (const [id, want] of expected) {
      const stat = served.get(id);
      expect(stat?.data_year, id).toBe(want.year);
      expect(`${stat?.label} ${stat?.headline} ${stat?.population}`, id).toContain(String(want.year));
    }
  });

  it('shows the inputs it computed with, at the precision it computed with', () => {
    for (const [id, want] of expected) {
      const text = `${served.get(id)?.label} ${served.get(id)?.headline}`;
      for (const shown of want.shows ?? []) expect(text, id).toContain(shown);
    }
  });

  it('names the population of every statistic, filters and exclusions included', () => {
    for (const [id, want] of expected) {
      const population = served.get(id)?.population ?? '';
      expect(population.length, id).toBeGreaterThan(20);
      for (const part of want.population ?? []) expect(population, id).toContain(part);
    }
  });

  it('dates rate statistics by their observation', () => {
    for (const [id, want] of expected) if (want.as_of) expect(served.get(id)?.as_of, id).toBe(want.as_of);
  });
});
