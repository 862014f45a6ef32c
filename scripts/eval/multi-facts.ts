// Expected facts of the multi-step /ask evaluation, computed straight from the official files in
// MDS_SOURCE_DIR with none of the service's code: its own CSV, JSON and iCalendar reading, its own
// arithmetic (means, counts, ranks, shares, payments). A wrong figure in the service, or a figure
// for a different place or period, shows up as a miss.
import fs from 'node:fs';
import path from 'node:path';
import { monthName, type ResolvedFact } from './facts.ts';

type Args = Record<string, string | number>;
interface Point {
  date: string;
  value: number;
}

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const memo = new Map<string, unknown>();
function once<T>(key: string, read: () => T): T {
  if (!memo.has(key)) memo.set(key, read());
  return memo.get(key) as T;
}

const RATE_FILES: Record<string, string> = {
  MORTGAGE30US: 'rates/MORTGAGE30US_weekly_1971_2026.csv',
  MORTGAGE15US: 'rates/MORTGAGE15US_weekly_1991_2025.csv',
};

function rates(source: string, series: string): Point[] {
  return once(`rates:${series}`, () =>
    lines(path.join(source, RATE_FILES[series] ?? `rates/recent_2020_2025/${series}.csv`))
      .slice(1)
      .map((line) => line.split(','))
      .filter(([, value]) => value !== undefined && value.trim() !== '' && value.trim() !== '.')
      .map(([date, value]) => ({ date: date as string, value: Number(value) })),
  );
}

const between = (points: Point[], from: string, to: string) => points.filter((point) => point.date >= from && point.date <= to);
const mean = (points: Point[]) => points.reduce((total, point) => total + point.value, 0) / points.length;
const compare = (value: number, op: string, threshold: number) => (op === 'gt' ? value > threshold : value < threshold);

function valueOn(points: Point[], date: string): number {
  const found = points.find((point) => point.date === date);
  if (!found) throw new Error(`no observation on ${date}`);
  return found.value;
}

/** Every way an answer may write a day: 2022-11-10, November 10, 2022. */
function dateForms(iso: string): string[] {
  const [year, month, day] = iso.split('-').map(Number);
  return [iso, `${monthName(month ?? 1)} ${day}, ${year}`];
}
const anyDate = (isos: string[], label: string): ResolvedFact => ({
  kind: 'regex',
  pattern: new RegExp(isos.flatMap(dateForms).map(escape).join('|')),
  label,
});
/** Every one of `names` must appear. */
const allNames = (names: string[], label: string): ResolvedFact => ({
  kind: 'regex',
  pattern: new RegExp(`^${names.map((name) => `(?=[\\s\\S]*${escape(name)})`).join('')}`, 'i'),
  label,
});
const num = (value: number, tolerance: number, label: string): ResolvedFact => ({
  kind: 'number',
  value,
  tolerance,
  label: `${label} = ${Math.round(value * 1000) / 1000}`,
});

function extreme(points: Point[], which: string): { value: number; dates: string[] } {
  const value = which === 'max' ? Math.max(...points.map((point) => point.value)) : Math.min(...points.map((point) => point.value));
  return { value, dates: points.filter((point) => point.value === value).map((point) => point.date) };
}

// Loan limits: FHFA county files (pipe-delimited; 2026 as CSV), HUD FHA county files, the national summary.
function conformingRows(source: string, year: number): Map<string, number[]> {
  return once(`fhfa:${year}`, () => {
    const rows = new Map<string, number[]>();
    if (year === 2026) {
      for (const line of lines(path.join(source, 'loan_limits/fhfa_conforming/FullCountyLoanLimitList2026_converted_from_xlsx.csv')).slice(
        1,
      )) {
        const cells = line.split(',');
        rows.set(`${cells[0]}${cells[1]}`, cells.slice(-4).map(Number));
      }
    } else {
      for (const line of lines(path.join(source, `loan_limits/fhfa_conforming/FullCountyLoanLimitList${year}.txt`)).slice(1)) {
        const cells = line.split('|');
        rows.set(`${cells[0]}${cells[1]}`, cells.slice(5, 9).map(Number));
      }
    }
    return rows;
  });
}

function splitQuoted(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

/** FIPS of each county and its state code and Census name, from the Census county list. */
function counties(source: string): Map<string, { state: string; stateFips: string; name: string }> {
  return once('counties', () => {
    const map = new Map<string, { state: string; stateFips: string; name: string }>();
    for (const line of lines(path.join(source, 'geo/county_FIPS.csv')).slice(1)) {
      const [state, stateFips, , name, , fips] = line.split(',');
      map.set(fips as string, { state: state as string, stateFips: stateFips as string, name: name as string });
    }
    return map;
  });
}

function fhaRows(source: string, year: number): Map<string, number[]> {
  return once(`hud:${year}`, () => {
    const all = lines(path.join(source, `loan_limits/hud_fha/forward_limits_${year}.csv`));
    const header = splitQuoted(all[0] as string);
    const at = (name: string) => header.indexOf(name);
    const byState = new Map<string, string>();
    for (const [, county] of counties(source)) byState.set(county.state, county.stateFips);
    const rows = new Map<string, number[]>();
    for (const line of all.slice(1)) {
      const cells = splitQuoted(line);
      const state = cells[at('state')];
      if (!state) continue; // the national floor and ceiling rows
      const fips = `${byState.get(state) ?? '??'}${cells[at('county-fips')]}`;
      rows.set(
        fips,
        ['limit-1-unit', 'limit-2-units', 'limit-3-units', 'limit-4-units'].map((name) => Number(cells[at(name)])),
      );
    }
    return rows;
  });
}

function national(source: string, year: number, column: string): number {
  const all = lines(path.join(source, 'loan_limits/national_limits_summary_2018_2026_DERIVED.csv'));
  const header = (all[0] as string).split(',');
  const row = all
    .slice(1)
    .map((line) => line.split(','))
    .find((cells) => Number(cells[0]) === year);
  return Number(row?.[header.indexOf(column)]);
}

function limit(source: string, program: 'conforming' | 'fha', fips: string, year: number, units = 1): number {
  const row = (program === 'fha' ? fhaRows(source, year) : conformingRows(source, year)).get(fips);
  if (!row) throw new Error(`${fips} not in the ${program} ${year} file`);
  return row[units - 1] as number;
}

function stateCountyLimits(source: string, program: 'conforming' | 'fha', state: string, year: number): { fips: string; value: number }[] {
  const rows = program === 'fha' ? fhaRows(source, year) : conformingRows(source, year);
  const census = counties(source);
  return [...rows].filter(([fips]) => census.get(fips)?.state === state).map(([fips, values]) => ({ fips, value: values[0] as number }));
}

const countyName = (source: string, fips: string) =>
  (counties(source).get(fips)?.name ?? fips).replace(/ (County|Parish|Borough|city|City and Borough|Census Area|Municipality)$/i, '');

// HMDA aggregates (HMDA Maps state and county files).
type Geo = { actionTaken: Record<string, number>; loanType: Record<string, number> };
const hmda = (source: string, level: 'state' | 'county', year: number) =>
  once(
    `hmda:${level}:${year}`,
    () => JSON.parse(fs.readFileSync(path.join(source, `hmda/aggregates/by_${level}_${year}.json`), 'utf8')) as Record<string, Geo>,
  );
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, value) => total + value, 0);

function measure(geo: Geo, name: string): number {
  const action = geo.actionTaken;
  if (name === 'originations') return action['1'] ?? 0;
  if (name === 'records') return sum(action);
  const decided = (action['1'] ?? 0) + (action['2'] ?? 0) + (action['3'] ?? 0);
  if (name === 'denial_rate') return ((action['3'] ?? 0) / decided) * 100;
  throw new Error(`unknown measure ${name}`);
}

/** The 50 states and DC with their names, from FHFA's NMDB file (which covers exactly those). */
function stateNames(source: string): Map<string, string> {
  return once('stateNames', () => new Map(nmdbRows(source).map((row) => [row.state, row.name])));
}

function stateRanking(
  source: string,
  year: number,
  name: string,
  value: (code: string, geo: Geo) => number,
): { code: string; name: string; value: number }[] {
  const all = hmda(source, 'state', year);
  return [...stateNames(source)].map(([code, stateName]) => ({ code, name: stateName, value: value(code, all[code] as Geo) }));
}

function population(source: string, place: string): number {
  const byCounty = once(
    'popCounty',
    () => JSON.parse(fs.readFileSync(path.join(source, 'geo/hmda_county_population_2024.json'), 'utf8')) as Record<string, number>,
  );
  const byState = once(
    'popState',
    () => JSON.parse(fs.readFileSync(path.join(source, 'geo/hmda_state_population_2024.json'), 'utf8')) as Record<string, number>,
  );
  if (/^\d{5}$/.test(place)) return byCounty[place] as number;
  const fips = [...counties(source).values()].find((county) => county.state === place)?.stateFips;
  return byState[fips as string] as number;
}

// FHFA NMDB: average contract rate of outstanding mortgages (all mortgages, each loan counted once).
function nmdbRows(source: string): { state: string; name: string; period: string; rate: number }[] {
  return once('nmdb', () =>
    lines(path.join(source, 'rates/state_nmdb/nmdb_states_quarterly_interest_rate_DERIVED.csv'))
      .slice(1)
      .map((line) => line.split(','))
      .filter((cells) => cells[2] === 'All Mortgages')
      .map((cells) => ({ state: cells[0] as string, name: cells[1] as string, period: cells[3] as string, rate: Number(cells[4]) })),
  );
}
const nmdbLatestPeriod = (source: string) => nmdbRows(source).reduce((latest, row) => (row.period > latest ? row.period : latest), '');
const nmdb = (source: string, state: string, period: string) =>
  nmdbRows(source).find((row) => row.state === state && row.period === period)?.rate as number;

// Calendars: the Fed's meeting list and BLS's own iCalendar feed.
function fomcDecisions(source: string): string[] {
  return lines(path.join(source, 'calendar/fomc_meetings_2021_2025.csv'))
    .slice(1)
    .map((line) => line.split(',')[2] as string);
}
const fomcIn = (source: string, year: number, month: number) =>
  fomcDecisions(source).find((date) => date.startsWith(`${year}-${String(month).padStart(2, '0')}`)) as string;

/** The PMMS observation dated in the Monday-to-Sunday week that holds `date`. */
function weekValue(points: Point[], date: string): number {
  const day = new Date(`${date}T00:00:00Z`);
  const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
  const sunday = new Date(new Date(`${monday}T00:00:00Z`).getTime() + 6 * 86_400_000).toISOString().slice(0, 10);
  const found = between(points, monday, sunday)[0];
  if (!found) throw new Error(`no observation in the week of ${date}`);
  return found.value;
}

function blsEvents(source: string): { date: string; summary: string }[] {
  return once('bls', () => {
    const text = fs.readFileSync(path.join(source, 'calendar/bls.ics'), 'utf8').replace(/\r?\n[ \t]/g, '');
    return text
      .split('BEGIN:VEVENT')
      .slice(1)
      .map((block) => {
        const start = /DTSTART[^:]*:(\d{4})(\d{2})(\d{2})/.exec(block);
        return { date: start ? `${start[1]}-${start[2]}-${start[3]}` : '', summary: /SUMMARY:(.*)/.exec(block)?.[1]?.trim() ?? '' };
      });
  });
}

/** Monthly principal and interest of a fixed-rate loan: P·r / (1 − (1 + r)^−n), r the monthly rate. */
function payment(amount: number, annualPercent: number, years: number): number {
  const rate = annualPercent / 100 / 12;
  const months = years * 12;
  return (amount * rate) / (1 - (1 + rate) ** -months);
}

export function resolveMultiFact(compute: string, args: Args, source: string): ResolvedFact | undefined {
  const s = (name: string) => String(args[name]);
  const n = (name: string) => Number(args[name]);
  switch (compute) {
    case 'countWeeks': {
      const count = between(rates(source, s('series')), s('from'), s('to')).filter((point) =>
        compare(point.value, s('op'), n('threshold')),
      ).length;
      return num(count, 0, `${s('series')} weeks ${s('op')} ${n('threshold')} ${s('from')}..${s('to')}`);
    }
    case 'lastWhere':
    case 'lastWhereValue': {
      const last = rates(source, s('series'))
        .filter((point) => compare(point.value, s('op'), n('threshold')))
        .at(-1) as Point;
      return compute === 'lastWhere'
        ? anyDate([last.date], `last ${s('op')} ${n('threshold')}: ${last.date}`)
        : num(last.value, 0.006, `value then`);
    }
    case 'extremeValue':
    case 'extremeDate': {
      const found = extreme(between(rates(source, s('series')), s('from'), s('to')), s('which'));
      return compute === 'extremeValue'
        ? num(found.value, 0.006, `${s('which')} ${s('series')}`)
        : anyDate(found.dates, `${s('which')} date ${found.dates.join('/')}`);
    }
    case 'mean':
      return num(mean(between(rates(source, s('series')), s('from'), s('to'))), 0.006, `mean ${s('series')} ${s('from')}..${s('to')}`);
    case 'meanChange': {
      const points = rates(source, s('series'));
      const yearMean = (year: string) => mean(between(points, `${year}-01-01`, `${year}-12-31`));
      return num(Math.abs(yearMean(s('b')) - yearMean(s('a'))), 0.006, `change of means ${s('a')}→${s('b')}`);
    }
    case 'valueOn':
      return num(valueOn(rates(source, s('series')), s('date')), 0.006, `${s('series')} on ${s('date')}`);
    case 'spreadOn':
      return num(
        Math.abs(valueOn(rates(source, s('a')), s('date')) - valueOn(rates(source, s('b')), s('date'))),
        0.006,
        `spread ${s('a')}−${s('b')} ${s('date')}`,
      );
    case 'meanSpread': {
      const yearMean = (series: string) => mean(between(rates(source, series), `${n('year')}-01-01`, `${n('year')}-12-31`));
      return num(Math.abs(yearMean(s('a')) - yearMean(s('b'))), 0.006, `mean spread ${n('year')}`);
    }
    case 'latest':
      return num((rates(source, s('series')).at(-1) as Point).value, 0.006, `latest ${s('series')}`);
    case 'paymentAtLatest':
      return num(payment(n('amount'), (rates(source, s('series')).at(-1) as Point).value, n('years')), 1, 'payment');
    case 'paymentAt':
      return num(payment(n('amount'), valueOn(rates(source, s('series')), s('date')), n('years')), 1, 'payment');
    case 'payment':
      return num(payment(n('amount'), n('rate'), n('years')), 1, 'payment');
    case 'lowToHighPercent': {
      const points = rates(source, s('series'));
      const low = extreme(between(points, `${n('lowYear')}-01-01`, `${n('lowYear')}-12-31`), 'min').value;
      const high = extreme(between(points, `${n('highYear')}-01-01`, `${n('highYear')}-12-31`), 'max').value;
      return num(((high - low) / low) * 100, 0.06, 'percent rise low→high');
    }
    case 'fomcDecision':
      return anyDate([fomcIn(source, n('year'), n('month'))], `FOMC decision ${n('year')}-${n('month')}`);
    case 'weekOfFomc':
      return num(
        weekValue(rates(source, s('series')), fomcIn(source, n('year'), n('month'))),
        0.006,
        `week of FOMC ${n('year')}-${n('month')}`,
      );
    case 'fomcWeekChange': {
      const points = rates(source, s('series'));
      return num(
        Math.abs(weekValue(points, fomcIn(source, n('year'), n('b'))) - weekValue(points, fomcIn(source, n('year'), n('a')))),
        0.006,
        'change between FOMC weeks',
      );
    }
    case 'countCountiesAboveBaseline': {
      const baseline = national(source, n('year'), 'gse_baseline_1unit');
      return num(
        stateCountyLimits(source, 'conforming', s('state'), n('year')).filter((row) => row.value > baseline).length,
        0,
        `${s('state')} counties above ${baseline}`,
      );
    }
    case 'countFhaAboveFloor': {
      const floor = national(source, n('year'), 'fha_floor_1unit');
      return num(
        stateCountyLimits(source, 'fha', s('state'), n('year')).filter((row) => row.value > floor).length,
        0,
        `${s('state')} counties above FHA floor ${floor}`,
      );
    }
    case 'topFhaValue':
    case 'topFhaCount':
    case 'topConformingValue':
    case 'topConformingNames': {
      const rows = stateCountyLimits(source, compute.startsWith('topFha') ? 'fha' : 'conforming', s('state'), n('year'));
      const top = Math.max(...rows.map((row) => row.value));
      const tied = rows.filter((row) => row.value === top);
      if (compute.endsWith('Value')) return num(top, 0.5, `top limit ${s('state')}`);
      if (compute.endsWith('Count')) return num(tied.length, 0, `counties at the top ${s('state')}`);
      const names = tied.map((row) => countyName(source, row.fips));
      return allNames(names, `tied at the top: ${names.join(', ')}`);
    }
    case 'baselineChange': {
      const a = national(source, n('from'), 'gse_baseline_1unit');
      const b = national(source, n('to'), 'gse_baseline_1unit');
      return s('as') === 'percent' ? num(((b - a) / a) * 100, 0.051, 'baseline change %') : num(b - a, 0.5, 'baseline change $');
    }
    case 'biggestBaselineJump': {
      let best = { year: 0, jump: -Infinity };
      for (let year = n('from') + 1; year <= 2026; year += 1) {
        const jump = national(source, year, 'gse_baseline_1unit') - national(source, year - 1, 'gse_baseline_1unit');
        if (jump > best.jump) best = { year, jump };
      }
      return s('as') === 'year' ? num(best.year, 0, 'year of the biggest jump') : num(best.jump, 0.5, 'biggest jump');
    }
    case 'conformingLimit':
      return num(
        limit(source, 'conforming', s('fips'), n('year'), args.units === undefined ? 1 : n('units')),
        0.5,
        `conforming ${s('fips')} ${n('year')}`,
      );
    case 'fhaLimit':
      return num(limit(source, 'fha', s('fips'), n('year')), 0.5, `FHA ${s('fips')} ${n('year')}`);
    case 'fhaShareOfConforming':
      return num(
        (limit(source, 'fha', s('fips'), n('year')) / limit(source, 'conforming', s('fips'), n('year'))) * 100,
        0.051,
        'FHA as % of conforming',
      );
    case 'conformingDifference':
      return num(
        Math.abs(limit(source, 'conforming', s('a'), n('year')) - limit(source, 'conforming', s('b'), n('year'))),
        0.5,
        'difference',
      );
    case 'conformingChange':
      return num(
        Math.abs(limit(source, 'conforming', s('fips'), n('to')) - limit(source, 'conforming', s('fips'), n('from'))),
        0.5,
        'change',
      );
    case 'fhaChange':
      return num(Math.abs(limit(source, 'fha', s('fips'), n('to')) - limit(source, 'fha', s('fips'), n('from'))), 0.5, 'FHA change');
    case 'unitDifference':
      return num(
        limit(source, 'conforming', s('fips'), n('year'), n('a')) - limit(source, 'conforming', s('fips'), n('year'), n('b')),
        0.5,
        'unit difference',
      );
    case 'aboveBaseline':
      return num(
        limit(source, 'conforming', s('fips'), n('year')) - national(source, n('year'), 'gse_baseline_1unit'),
        0.5,
        'above baseline',
      );
    case 'topStateName':
    case 'topStateValue':
    case 'bottomStateName': {
      const ranked = stateRanking(source, n('year'), s('measure'), (_code, geo) => measure(geo, s('measure'))).sort((a, b) =>
        compute === 'bottomStateName' ? a.value - b.value : b.value - a.value,
      );
      const entry = ranked[n('rank') - 1] as { name: string; value: number };
      if (compute === 'topStateValue') return num(entry.value, s('measure').endsWith('rate') ? 0.051 : 0.5, `rank ${n('rank')} value`);
      return { kind: 'regex', pattern: new RegExp(escape(entry.name), 'i'), label: `rank ${n('rank')} ${entry.name}` };
    }
    case 'countyMeasure':
      return num(
        measure(hmda(source, 'county', n('year'))[s('fips')] as Geo, s('measure')),
        s('measure').endsWith('rate') ? 0.051 : 0.5,
        `${s('measure')} ${s('fips')} ${n('year')}`,
      );
    case 'stateMeasure':
      return num(
        measure(hmda(source, 'state', n('year'))[s('state')] as Geo, s('measure')),
        s('measure').endsWith('rate') ? 0.051 : 0.5,
        `${s('measure')} ${s('state')} ${n('year')}`,
      );
    case 'countyLoanTypeShare': {
      const types = (hmda(source, 'county', n('year'))[s('fips')] as Geo).loanType;
      return num(((types[s('loanType')] ?? 0) / sum(types)) * 100, 0.051, `loan type ${s('loanType')} share ${s('fips')}`);
    }
    case 'stateMeasureChangePercent': {
      const a = measure(hmda(source, 'state', n('from'))[s('state')] as Geo, s('measure'));
      const b = measure(hmda(source, 'state', n('to'))[s('state')] as Geo, s('measure'));
      return num(Math.abs(((b - a) / a) * 100), 0.051, 'percent change');
    }
    case 'perThousand': {
      const place = s('place');
      const geo = /^\d{5}$/.test(place) ? hmda(source, 'county', n('year'))[place] : hmda(source, 'state', n('year'))[place];
      return num((measure(geo as Geo, s('measure')) / population(source, place)) * 1000, 0.051, `per 1,000 residents ${place}`);
    }
    case 'stateShareOfNation': {
      const all = hmda(source, 'state', n('year'));
      const total = Object.values(all).reduce((acc, geo) => acc + measure(geo, s('measure')), 0);
      return num((measure(all[s('state')] as Geo, s('measure')) / total) * 100, 0.051, `share of the nation ${s('state')}`);
    }
    case 'peakNationalYear': {
      let best = { year: 0, value: -1 };
      for (let year = 2018; year <= 2025; year += 1) {
        const value = Object.values(hmda(source, 'state', year)).reduce((acc, geo) => acc + measure(geo, s('measure')), 0);
        if (value > best.value) best = { year, value };
      }
      return s('as') === 'year' ? num(best.year, 0, 'peak year') : num(best.value, 0.5, 'peak value');
    }
    case 'topPerResidentName': {
      const ranked = stateRanking(
        source,
        n('year'),
        s('measure'),
        (code, geo) => measure(geo, s('measure')) / population(source, code),
      ).sort((a, b) => b.value - a.value);
      const top = ranked[0] as { name: string };
      return { kind: 'regex', pattern: new RegExp(escape(top.name), 'i'), label: `top per resident ${top.name}` };
    }
    case 'nmdbLatest':
      return num(nmdb(source, s('state'), nmdbLatestPeriod(source)), 0.051, `NMDB ${s('state')} ${nmdbLatestPeriod(source)}`);
    case 'nmdbAt':
      return num(nmdb(source, s('state'), s('period')), 0.051, `NMDB ${s('state')} ${s('period')}`);
    case 'nmdbChangeSince':
      return num(
        Math.abs(nmdb(source, s('state'), nmdbLatestPeriod(source)) - nmdb(source, s('state'), s('period'))),
        0.051,
        'NMDB change',
      );
    case 'nmdbTopName':
    case 'nmdbTopValue': {
      const rows = nmdbRows(source).filter((row) => row.period === nmdbLatestPeriod(source));
      const top = Math.max(...rows.map((row) => row.rate));
      if (compute === 'nmdbTopValue') return num(top, 0.051, 'NMDB top');
      const names = rows.filter((row) => row.rate === top).map((row) => row.name);
      return allNames(names, `NMDB top ${names.join(', ')}`);
    }
    case 'nmdbVsLatest':
      return num(
        Math.abs((rates(source, s('series')).at(-1) as Point).value - nmdb(source, s('state'), nmdbLatestPeriod(source))),
        0.051,
        'new vs outstanding',
      );
    case 'blsRelease': {
      const event = blsEvents(source).find((candidate) => candidate.date.startsWith(s('month')) && candidate.summary === s('summary'));
      return event ? anyDate([event.date], `${s('summary')} ${event.date}`) : undefined;
    }
    case 'fomcCount':
      return num(fomcDecisions(source).filter((date) => date.startsWith(`${n('year')}-`)).length, 0, `FOMC decisions ${n('year')}`);
    default:
      return undefined;
  }
}
