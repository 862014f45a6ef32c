// Computes every HMDA figure quoted in content/articles (research write-ups) from the FFIEC HMDA
// aggregate files, so each number in the text can be reproduced: `node scripts/content/hmda-figures.ts`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCountyList } from '../../api/geo/county-list.ts';

type Counts = Record<string, number>;
type GeoAggregate = Record<string, Counts>;
type AggregateFile = Record<string, GeoAggregate>;

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sourceDir = path.resolve(process.env.MDS_SOURCE_DIR ?? path.join(projectRoot, '..', 'shared', 'data'));
const aggregatesDir = path.join(sourceDir, 'hmda', 'aggregates');
const YEARS = [2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025];
// The 50 states and DC: territories and the "NA" bucket (no state reported) are left out of rankings.
const STATES = ['AK', 'AL', 'AR', 'AZ', 'CA', 'CO', 'CT', 'DC', 'DE', 'FL', 'GA', 'HI', 'IA', 'ID', 'IL', 'IN',
  'KS', 'KY', 'LA', 'MA', 'MD', 'ME', 'MI', 'MN', 'MO', 'MS', 'MT', 'NC', 'ND', 'NE', 'NH', 'NJ', 'NM', 'NV', 'NY',
  'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VA', 'VT', 'WA', 'WI', 'WV', 'WY'];

function load(kind: 'state' | 'county', year: number): AggregateFile {
  return JSON.parse(readFileSync(path.join(aggregatesDir, `by_${kind}_${year}.json`), 'utf8')) as AggregateFile;
}

const get = (counts: Counts | undefined, key: string): number => counts?.[key] ?? 0;
const sum = (counts: Counts | undefined): number => Object.values(counts ?? {}).reduce((a, b) => a + b, 0);
const pct = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

/** Adds every geography's counts into one national aggregate (all keys, including territories and NA). */
function national(file: AggregateFile): GeoAggregate {
  const out: GeoAggregate = {};
  for (const geo of Object.values(file)) {
    for (const [field, counts] of Object.entries(geo)) {
      const target = (out[field] ??= {});
      for (const [code, n] of Object.entries(counts)) target[code] = (target[code] ?? 0) + n;
    }
  }
  return out;
}

/** The per-geography measures used in the write-ups; denial rate = denied / (originated + approved not accepted + denied). */
function measures(g: GeoAggregate) {
  const a = g.actionTaken;
  const records = sum(a);
  const decided = get(a, '1') + get(a, '2') + get(a, '3');
  const units = g.totalUnits;
  return {
    records,
    applications: records - get(a, '6'),
    originations: get(a, '1'),
    purchasedLoans: get(a, '6'),
    denied: get(a, '3'),
    denialRatePct: pct(get(a, '3'), decided),
    withdrawnSharePct: pct(get(a, '4'), records),
    incompleteSharePct: pct(get(a, '5'), records),
    conventionalSharePct: pct(get(g.loanType, '1'), records),
    fhaSharePct: pct(get(g.loanType, '2'), records),
    vaSharePct: pct(get(g.loanType, '3'), records),
    usdaSharePct: pct(get(g.loanType, '4'), records),
    purchaseSharePct: pct(get(g.loanPurpose, '1'), records),
    homeImprovementSharePct: pct(get(g.loanPurpose, '2'), records),
    refinanceSharePct: pct(get(g.loanPurpose, '31'), records),
    cashOutSharePct: pct(get(g.loanPurpose, '32'), records),
    otherPurposeSharePct: pct(get(g.loanPurpose, '4'), records),
    subordinateLienSharePct: pct(get(g.lienStatus, '2'), records),
    manufacturedSharePct: pct(get(g.constructionMethod, '2'), records),
    twoToFourUnitSharePct: pct(get(units, '2') + get(units, '3') + get(units, '4'), records),
    femaleSharePct: pct(get(g.sex, 'Female'), records),
    maleSharePct: pct(get(g.sex, 'Male'), records),
    jointSexSharePct: pct(get(g.sex, 'Joint'), records),
    sexNotAvailableSharePct: pct(get(g.sex, 'Sex Not Available'), records),
    under35SharePct: pct(get(g.age, '<25') + get(g.age, '25-34'), records),
    age65PlusSharePct: pct(get(g.age, '65-74') + get(g.age, '>74'), records),
    ageNotApplicableSharePct: pct(get(g.age, '8888'), records),
    hispanicSharePct: pct(get(g.ethnicity, 'Hispanic or Latino'), records),
    asianSharePct: pct(get(g.race, 'Asian'), records),
    blackSharePct: pct(get(g.race, 'Black or African American'), records),
    whiteSharePct: pct(get(g.race, 'White'), records),
    raceNotAvailableSharePct: pct(get(g.race, 'Race Not Available'), records),
  };
}
type Measures = ReturnType<typeof measures>;

function rank(byState: Record<string, Measures>, key: keyof Measures, n = 5) {
  const rows = STATES.map((s) => [s, byState[s]?.[key] ?? 0] as const).sort((x, y) => y[1] - x[1]);
  return { top: rows.slice(0, n), bottom: rows.slice(-n).reverse() };
}

function countyNames(): Map<string, string> {
  const file = path.join(sourceDir, 'geo', 'county_FIPS.csv');
  return new Map(parseCountyList(readFileSync(file), file).map((county) => [county.fips, `${county.name}, ${county.state}`]));
}

const nationalByYear = Object.fromEntries(YEARS.map((y) => [y, measures(national(load('state', y)))]));
const latest = 2024;
const stateFiles = Object.fromEntries([2018, 2024, 2025].map((y) => [y, load('state', y)]));
const byState = (year: number): Record<string, Measures> =>
  Object.fromEntries(STATES.map((s) => [s, measures(stateFiles[year]?.[s] ?? {})]));
const states2024 = byState(latest);
const states2018 = byState(2018);

const states2025 = byState(2025);
function recordChange(from: Record<string, Measures>, to: Record<string, Measures>) {
  const rows = STATES.map((s) => {
    const a = from[s]?.records ?? 0;
    const b = to[s]?.records ?? 0;
    return [s, a, b, pct(b - a, a)] as const;
  }).sort((x, y) => y[3] - x[3]);
  return { top: rows.slice(0, 5), bottom: rows.slice(-5).reverse() };
}

const names = countyNames();
const counties2024 = load('county', latest);
const countyRows = Object.entries(counties2024).map(([fips, g]) => ({ fips, name: names.get(fips) ?? fips, ...measures(g) }));
// "NA" collects records without a county; it is not a place, so it is left out of county rankings.
const bigCounties = countyRows.filter((c) => c.fips !== 'NA' && c.records >= 20_000);
const topBy = (key: keyof Measures, n = 5) =>
  [...bigCounties].sort((x, y) => (y[key] as number) - (x[key] as number)).slice(0, n)
    .map((c) => [c.fips, c.name, c[key], c.records]);

const report = {
  source: 'FFIEC HMDA aggregates (data behind HMDA Maps), by_state_YYYY.json / by_county_YYYY.json',
  nationalByYear,
  states2024: Object.fromEntries(['CA', 'TX', 'FL', 'NY', 'GA', 'NC', 'OH', 'PA', 'AK', 'VA', 'MS', 'DC', 'UT', 'MD', 'WV'].map((s) => [s, states2024[s]])),
  rankings2024: Object.fromEntries((['records', 'denialRatePct', 'fhaSharePct', 'vaSharePct', 'usdaSharePct', 'cashOutSharePct',
    'subordinateLienSharePct', 'manufacturedSharePct', 'twoToFourUnitSharePct', 'age65PlusSharePct', 'under35SharePct',
    'hispanicSharePct', 'femaleSharePct', 'purchaseSharePct'] as const).map((k) => [k, rank(states2024, k)])),
  recordChange2018to2024: recordChange(states2018, states2024),
  recordChange2024to2025: recordChange(states2024, states2025),
  rankings2025: Object.fromEntries((['records', 'denialRatePct', 'fhaSharePct', 'cashOutSharePct', 'refinanceSharePct'] as const)
    .map((k) => [k, rank(states2025, k)])),
  counties2024: {
    countiesWith20kRecords: bigCounties.length,
    topByRecords: topBy('records'),
    topByFhaShare: topBy('fhaSharePct'),
    topByVaShare: topBy('vaSharePct'),
    topByDenialRate: topBy('denialRatePct'),
  },
};

console.log(JSON.stringify(report, null, 1));
